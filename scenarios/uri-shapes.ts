/**
 * URIs of many shapes for the `uri-shapes` scenario (SPEC §3.7), written out by hand: the truth of which strings
 * name one resource is this table, never the client's canonicaliser (core/uri.ts).
 *
 * - `uriShapeResources`: resources in canonical form, each with spellings made by construction that RFC 3986
 *   §6.2.2 normalisation (plus default ports) takes back to it. Near-misses that are NOT equivalent are distinct
 *   resources of the same table (`:8080` vs no port, `%2F` vs `/`, userinfo and query case, `mem:a/../b` vs
 *   `mem:b`, `mem:/.//a` vs `mem://a`, an empty path vs `/` for ws, a port 1 on a scheme without default port).
 * - `nonUris`: strings that are not URIs (the "URI" production of RFC 3986, with its length bound), each next to a
 *   resource it would be mistaken for once accepted.
 *
 * The listing (sim/actors/listing.ts, `ServerPlan.uriShapes`, one page per pass) lists every resource under a spelling taken in turn
 * (a conflation or a rejection of a valid spelling abandons an honest snapshot pass: proven_withheld; a spelling
 * turned into another name fails catalog_untrue), and between those passes serves malformed ones: a resource twice
 * under two spellings in one page (a client that does not see it is one resource publishes: unreconciled_catalog),
 * or one non-URI entry (a client that accepts it publishes: unreconciled_catalog). scenarios/uri-shapes.test.ts
 * checks the table against core/uri.ts, once, as a test: the run never asks it.
 */
import { ratio } from '../sim/faults.js';
import type { ResourceSpec } from '../sim/plan.js';
import type { Scenario } from './scenario.js';
import { healPhaseMs, plan, workload } from './shape.js';

function resource(uri: string, ...spellings: string[]): ResourceSpec {
  return { uri, mimeType: 'text/plain', spellings };
}

/** The longest URI a client keeps (core/uri.ts URI_LENGTH_MAX, 8,192 characters), spelled out independently. */
const uriLengthMax = 8192;
const longPath = 'a'.repeat(uriLengthMax - 'mem:'.length);

export const uriShapeResources: ResourceSpec[] = [
  // http: empty path is "/", default port 80 (also written with leading zeros, or empty), host case, dot segments.
  resource('http://example.com/', 'HTTP://EXAMPLE.COM', 'http://example.com', 'http://example.com:80/', 'http://example.com:/', 'http://Example.com:0080', 'http://%65xample.com/..', 'http://%45xample.com/a/..', 'http://example.com/.'),
  resource('http://example.com:8080/', 'http://example.com:08080', 'HTTP://example.com:8080/./', 'http://EXAMPLE.com:8080/x/../'),
  resource('http://example.com:443/', 'http://example.com:0443/'),
  resource('http://example.com:9/', 'http://example.com:09/'),
  resource('http://example.com:0/', 'http://example.com:00/'),
  resource('http://example.com:65535/', 'http://example.com:065535'),
  resource('http://example.com/?q', 'http://example.com?q', 'HTTP://example.com:80?q'),
  // https: default port 443, empty path "/".
  resource('https://example.com/', 'https://example.com:443/', 'HTTPS://example.com', 'https://example.com:/'),
  resource('https://example.com:80/', 'https://example.com:080/'),
  // ws/wss: default ports, but an empty path stays empty (only http and https get "/").
  resource('ws://example.com', 'ws://example.com:80', 'WS://Example.Com:'),
  resource('ws://example.com/', 'ws://example.com:80/'),
  resource('ws://example.com:443/', 'ws://example.com:0443/'),
  resource('wss://example.com/a', 'wss://example.com:443/a'),
  resource('wss://example.com:80/a', 'wss://example.com:080/a'),
  // A scheme without a default port keeps every port, 1, 80 and 443 included; an empty port is still removed.
  resource('mem://host:80/x', 'MEM://HOST:80/x', 'mem://host:080/x'),
  resource('mem://host:443/x', 'MEM://HOST:0443/x'),
  resource('mem://host:1/x', 'mem://host:01/x'),
  resource('mem://host/x', 'mem://host:/x'),
  resource('mem://a', 'MEM://A'),
  resource('mem://h?q', 'mem://H?q'),
  resource('mem://h/?q', 'mem://H:/?q'),
  // userinfo: percent rules only, case kept.
  resource('http://User@example.com/', 'http://Us%65r@EXAMPLE.com/', 'http://%55ser@example.com:80'),
  resource('http://user@example.com/', 'http://user@example.com:80/', 'http://%75ser@example.com/'),
  resource('http://us%2Fer:pw@example.com/', 'http://us%2fer:p%77@example.com/'),
  // The authority ends at the first "/", "?" or "#": an "@" or ":" after it is a path or query character, not
  // userinfo or a port (a second "@" there is no second userinfo), and a "/" in the query does not end the host.
  resource('mem://h/a:@b', 'MEM://H/a:@b'),
  resource('mem://u@h/a@b', 'MEM://u@H/a@b'),
  resource('mem://h?a/b', 'MEM://H?a/b'),
  // IP literals: hex case, default port after "]"; IPvFuture with every sub-delim, unreserved mark and ":".
  resource('http://[2001:db8::1]/', 'http://[2001:DB8::1]/', 'http://[2001:db8::1]:80/', 'HTTP://[2001:Db8::1]'),
  resource('http://[2001:db8::1]:8080/', 'http://[2001:DB8::1]:08080/'),
  resource('mem://[::ffff:1.2.3.4]/a', 'MEM://[::FFFF:1.2.3.4]/a'),
  resource("mem://[v1f.a!$&'()*+,;=:-._~]/x", "mem://[V1F.A!$&'()*+,;=:-._~]/x"),
  resource('mem://[v09afaf.x]/', 'mem://[V09AFaf.X]/'),
  resource('mem://[v1.x]:80/y', 'MEM://[V1.x]:080/y'),
  // reg-name: escapes of unreserved characters decoded to lower case, other escapes upper-cased.
  resource('http://azaz-._~09.test/', 'http://%41%5A%61%7A%2D%2E%5F%7E%30%39.test/', 'http://%41%5a%61%7a%2d%2e%5f%7e%30%39.TEST'),
  resource('http://a%2Fb/', 'http://A%2fB/'),
  // Path: dot segments (inside, at the end, beyond the root, encoded), and segments that only look like them.
  resource('http://example.com/a/b', 'http://example.com/a/./b', 'http://example.com/a/c/../b', 'http://example.com/../a/b', 'http://example.com/./a/b', 'http://example.com/a/%2e%2E/a/b'),
  resource('http://example.com/a/b/', 'http://example.com/a/b/c/..', 'http://example.com/a/b/.', 'http://example.com/a/b/c/../'),
  resource('http://example.com/a/', 'http://example.com/a/b/..', 'http://example.com/a/./'),
  resource('http://example.com/a/.b/..c/...', 'HTTP://example.com/a/.b/..c/...', 'http://example.com/a/%2Eb/%2E.c/.%2E.'),
  resource('mem:/b', 'mem:/a/../b', 'MEM:/./b', 'mem:/./b', 'mem:/../../b'),
  resource('mem:/', 'mem:/..', 'mem:/.', 'MEM:/'),
  resource('mem:', 'MEM:'),
  // Opaque (rootless) paths keep their dot segments: mem:a/../b and mem:b are different resources.
  resource('mem:a/../b', 'MEM:a/../b', 'mem:%61/../b'),
  resource('mem:b', 'Mem:b', 'mem:%62'),
  // Without an authority a path may not start with "//": the "/." guard keeps mem:/.//a apart from mem://a.
  resource('mem:/.//a', 'MEM:/.//a', 'mem:/a/..//a', 'mem:/x/.././/a'),
  // Path escapes: unreserved at each class boundary decoded, every other escape kept with upper-case hex.
  resource('mem:/a-._~z09AZ', 'mem:/%61%2D%2E%5F%7E%7A%30%39%41%5A', 'mem:/%61%2d%2e%5f%7e%7a%30%39%41%5a'),
  resource('mem:/x%2F%3A%40%5B%5D%60%7B%7F%20%2C%25%FF%00%0A%AF', 'mem:/x%2f%3a%40%5b%5d%60%7b%7f%20%2c%25%ff%00%0a%Af'),
  resource('mem:/x/'),
  resource('mem:/x:@,'),
  resource('mem:/a%2Fb', 'mem:/a%2fb', 'MEM:/%61%2Fb'),
  resource('mem:/a/b', 'mem:/a/%62', 'mem:/%61/b'),
  // Query and fragment: percent rules, case kept, no dot segments; "?" and "/" inside them; "?" after "#".
  resource('http://example.com/p?a=1&b=%2F#frag', 'http://EXAMPLE.com/p?a=%31&b=%2f#fr%61g', 'http://example.com:80/p?%61=1&b=%2F#frag'),
  resource('http://example.com/p?A=1&b=%2F#frag', 'http://example.com/p?%41=1&b=%2F#frag'),
  resource('http://example.com/p?a=1&b=/#frag'),
  resource('http://example.com/p?a=1&b=%2F#Frag', 'http://example.com/p?a=1&b=%2f#%46rag'),
  resource('http://example.com/p?a=1&b=%2F', 'HTTP://example.com/p?a=1&b=%2F'),
  resource('http://example.com/p?a=1&b=%2F#', 'HTTP://example.com/p?a=1&b=%2F#'),
  resource('http://example.com/p?', 'HTTP://example.com/p?'),
  resource('http://example.com/p', 'http://example.com/./p'),
  resource('mem:x?a/b?c/../d', 'MEM:x?a/b?c/../d', 'mem:x?%61/b?c/../d'),
  resource('mem:x#a?b', 'MEM:x#a?b', 'mem:x#%61?b'),
  resource('mem:x?~#~', 'mem:x?%7E#%7e'),
  // Scheme characters: letters at both ends of the alphabet, digits, "+", "-", ".".
  resource('az09+-.z:x', 'AZ09+-.Z:x', 'Az09+-.z:x'),
  resource('za:b', 'ZA:b', 'zA:b'),
  // Sub-delims and ":" "@" in a path stay as they are.
  resource("mem:/!$&'()*+,;=:@", "MEM:/!$&'()*+,;=:@"),
  // The longest URI kept, spelled through the full parser.
  resource('mem:' + longPath, 'MEM:' + longPath),
];

/**
 * Not URIs: rejected with a typed error (SPEC §3.7), so a list page carrying one is malformed. Grouped by the rule
 * each breaks; where a class has a boundary, both neighbours of the boundary are here.
 */
export const nonUris: readonly string[] = [
  // Characters: controls, space, DEL, non-ASCII, and every printable ASCII character RFC 3986 excludes.
  '', 'mem:a b', 'mem:a\u0001b', 'mem:a\u007fb', 'mem:a\u00e9', 'mem:a\u{1f600}',
  'mem:a"b', 'mem:a<b', 'mem:a>b', 'mem:a\\b', 'mem:a^b', 'mem:a`b', 'mem:a{b', 'mem:a|b', 'mem:a}b',
  'http://example.com/a b', 'http://ex ample.com/', 'mem:x?a b', 'mem:x#a b',
  // Percent escapes: missing or non-hex digits, each neighbour of the hex ranges, in either position.
  'mem:a%', 'mem:a%4', 'mem:/%', 'mem:a%4G', 'mem:a%G4', 'mem:a%g4', 'mem:a%4g', 'mem:a%/0', 'mem:a%0/', 'mem:a%:0', 'mem:a%0:',
  'mem:a%@0', 'mem:a%0@', 'mem:a%`0', 'mem:a%0`', 'mem:a%%41', 'mem:%/a/b', 'http://ex%4.com/', 'mem:x?%4', 'mem:x?%', 'mem:x#%G1',
  // Scheme: none, empty, not starting with a letter, characters outside letters, digits, "+", "-", ".".
  'abc', 'a/b:c', 'a?b:c', 'a#b:c', '/a:b', '?a:b', '#a:b', ':a', '1a:b', '+a:b', '.a:b', '-a:b', '@a:b', '[a:b', '%41a:b',
  'a*b:c', 'a,b:c', 'a_b:c', 'a~b:c', 'a!b:c', 'a%41:b', 'a@b:c', 'a[b:c', 'a]b:c', 'a=b:c', 'a;b:c', '~:x', '{:x',
  // Fragment: a second "#".
  'mem:a#b#c', 'mem:a#b?c#d', 'http://example.com/#a#',
  // Authority: two "@", brackets in userinfo or reg-name, a bracket after the authority.
  'http://a@b@example.com/', 'http://[a@example.com/', 'http://a]@example.com/', 'http://a]b/', 'http://a[b/', 'http://example.com]/',
  'mem:/a[b', 'mem:/a]b', 'http://example.com/[', 'mem:a?b[c', 'mem:a#[', 'mem:a]',
  // IP literals: unclosed, closed beyond the authority, junk after "]", no ":", bad characters; bad IPvFuture.
  'http://[::1/', 'http://[::1/]', 'http://[::1]x/', 'http://[::1]:80x/', 'http://[1234]/', 'http://[::g]/', 'http://[::1-2]/', 'http://[::1%41]/',
  'http://[]/', 'http://[v.x]/', 'http://[v1x]/', 'http://[v1.]/', 'http://[vg.x]/', 'http://[v1.%41]/', 'http://[v1.[]/', 'http://[v1.x/y]/',
  'http://[V.x]/', 'http://[v1]/', 'http://[v1-x]/', 'http://[v1.x"]/', 'http://[v1.x#]/',
  // Ports: not decimal digits (each neighbour of "0"-"9"), out of range.
  'http://example.com:8a/', 'http://example.com:a/', 'http://example.com:-1/', 'http://example.com:1.2/', 'http://example.com:1:2/',
  'http://example.com:65536/', 'http://example.com:99999/', 'http://example.com:655350/', 'mem://h:1x', 'http://[::1]:a/',
  // Length: one character more than the longest URI kept.
  'mem:' + longPath + 'a',
];

/**
 * Every resource of the table subscribed and listed; discovery every 100-600 ms over a 60 s fault phase, so the
 * listing's turns (honest, duplicate, non-URI, duplicate, non-URI) reach every spelling and every non-URI in most
 * interleavings (about 400 passes; a client abandons a malformed pass and starts the next at once, 4 rounds at
 * most; a discovery process that ends early, the interval's draw 0, lists fewer).
 * Nothing is deleted (a duplicate needs its resource on the page; proven catalogs are judged against existence).
 * Notifications and read results name resources by their table spellings half the time (uri-spelling).
 */
export const uriShapes: Scenario = {
  name: 'uri-shapes',
  description: 'URIs of many shapes (ports, userinfo, IP literals, dot segments, escapes, query, fragment) listed, read and notified under equivalent spellings, next to near-misses and non-URIs',
  targets: ['uri_confusion', 'unreconciled_catalog', 'proven_withheld', 'catalog_untrue', 'convergence_60s'],
  catches: [],
  sometimes: ['uri-spelling'],
  plan: (chooser) =>
    plan(
      { 'uri-spelling': ratio(1, 2) },
      workload(
        chooser,
        {
          faultPhaseMs: 60_000,
          healPhaseMs,
          mutationIntervalMsMin: 2_000,
          mutationIntervalMsMax: 6_000,
          deleteRatio: ratio(0, 1),
          finalDeleteRatio: ratio(0, 1),
          discoverIntervalMsMin: 100,
          discoverIntervalMsMax: 600,
        },
        uriShapeResources,
        uriShapeResources.length,
      ),
      { snapshotId: true, pageSizeMax: 24, uriShapes: { nonUris } },
    ),
};
