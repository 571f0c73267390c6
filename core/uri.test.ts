import { describe, expect } from 'vitest';
import { test, fc } from '@fast-check/vitest';
import {
  canonicalizeUri,
  canonicalizeUriWithoutFastPath,
  sameResource,
  URI_LENGTH_MAX,
  type CanonicalUriResult,
} from './uri.js';

function canonical(input: string): string {
  const result = canonicalizeUri(input);
  if (!result.ok) throw new Error(`expected ${JSON.stringify(input)} to be accepted: ${result.error.reason}`);
  return result.uri;
}

function rejectionReason(input: string): string {
  const result = canonicalizeUri(input);
  if (result.ok) throw new Error(`expected ${JSON.stringify(input)} to be rejected, got ${result.uri}`);
  expect(result.error.type).toBe('InvalidUri');
  expect(result.error.input).toBe(input);
  return result.error.reason;
}

describe('canonicalizeUri: normalization rules', () => {
  test.each([
    ['scheme is lower-cased', 'HTTP://example.com/a', 'http://example.com/a'],
    ['mixed-case custom scheme is lower-cased', 'Demo://resource/x', 'demo://resource/x'],
    ['host is lower-cased', 'http://ExAmPlE.COM/a', 'http://example.com/a'],
    ['path keeps its case', 'http://example.com/A/B', 'http://example.com/A/B'],
    ['encoded unreserved letters are decoded', 'test://static/%61%62c', 'test://static/abc'],
    ['encoded unreserved digits and marks are decoded', 'test://h/%31%2D%2E%5F%7E', 'test://h/1-._~'],
    ['encoded host letters are decoded and lower-cased', 'http://%45xample.com/', 'http://example.com/'],
    ['remaining escape hex is upper-cased', 'test://h/a%2fb%c3%a9', 'test://h/a%2Fb%C3%A9'],
    ['host escapes keep upper-case hex while letters are lower-cased', 'http://A%c3%a9B/', 'http://a%C3%A9b/'],
    ['default http port is removed', 'http://example.com:80/a', 'http://example.com/a'],
    ['default https port is removed', 'https://example.com:443/a', 'https://example.com/a'],
    ['default ws port is removed', 'ws://example.com:80/a', 'ws://example.com/a'],
    ['default wss port is removed', 'wss://example.com:443/a', 'wss://example.com/a'],
    ['a non-default port is kept', 'http://example.com:8080/a', 'http://example.com:8080/a'],
    ['https on port 80 keeps the port', 'https://example.com:80/a', 'https://example.com:80/a'],
    ['a custom scheme keeps port 80', 'demo://example.com:80/a', 'demo://example.com:80/a'],
    ['leading zeros of a port are dropped', 'demo://h:0081/a', 'demo://h:81/a'],
    ['leading zeros of a default port make it default', 'http://h:0080/a', 'http://h/a'],
    ['an empty port is removed', 'demo://example.com:/a', 'demo://example.com/a'],
    ['an empty port is removed with no path', 'test://h:', 'test://h'],
    ['dot segments are removed', 'http://h/a/b/../c/./d', 'http://h/a/c/d'],
    ['".." above the root stops at the root', 'http://h/../../a', 'http://h/a'],
    ['a trailing ".." leaves a trailing slash', 'http://h/a/b/..', 'http://h/a/'],
    ['a trailing "." leaves a trailing slash', 'http://h/a/.', 'http://h/a/'],
    ['encoded dots are dot segments once decoded', 'http://h/a/%2E%2e/b', 'http://h/b'],
    ['segments that only contain dots are kept', 'http://h/.../..a/a..', 'http://h/.../..a/a..'],
    ['empty segments are kept', 'http://h/a//b/', 'http://h/a//b/'],
    ['empty http path becomes "/"', 'http://example.com', 'http://example.com/'],
    ['empty https path becomes "/" before a query', 'https://example.com?q=1', 'https://example.com/?q=1'],
    ['empty ws path stays empty', 'ws://example.com', 'ws://example.com'],
    ['empty custom-scheme path stays empty', 'test://static', 'test://static'],
    ['file URI with empty authority', 'file:///x', 'file:///x'],
    ['file URI dot segments', 'FILE:///a/./b/../c', 'file:///a/c'],
    ['MCP demo resource', 'demo://resource/static/document/a.md', 'demo://resource/static/document/a.md'],
    ['MCP test resource', 'test://static/resource/1', 'test://static/resource/1'],
    ['absolute path without authority loses dot segments', 'mem:/a/../b', 'mem:/b'],
    ['dot removal never turns a path into an authority', 'mem:/.//a', 'mem:/.//a'],
    ['dot removal adds a "/." guard before "//"', 'mem:/x/..//a', 'mem:/.//a'],
    ['opaque urn keeps its path', 'URN:isbn:123', 'urn:isbn:123'],
    ['rootless path keeps its dot segments', 'mem:a/../b', 'mem:a/../b'],
    ['userinfo is kept with its case, escapes normalized', 'http://User:P%61ss%3a@H/', 'http://User:Pass%3A@h/'],
    ['query is kept with the percent rules', 'http://h/p?A=%7e&b=%2f', 'http://h/p?A=~&b=%2F'],
    ['query keeps dot segments', 'http://h/p?/../x', 'http://h/p?/../x'],
    ['fragment is kept with the percent rules', 'http://h/p#Sec%74ion%20', 'http://h/p#Section%20'],
    ['empty query and fragment are kept', 'http://h/?#', 'http://h/?#'],
    ['IPv6 literal host is lower-cased, port kept', 'http://[FE80::1]:8080/', 'http://[fe80::1]:8080/'],
    ['IPv6 literal with default port', 'https://[::1]:443', 'https://[::1]/'],
    ['IPvFuture literal', 'http://[v1.Fe:x]/', 'http://[v1.fe:x]/'],
    ['scheme with digits, "+", "-", "."', 'X-Custom+V1.2:thing', 'x-custom+v1.2:thing'],
    ['sub-delims and "@" ":" are allowed in paths', "test://h/a!$&'()*+,;=:@b", "test://h/a!$&'()*+,;=:@b"],
  ])('%s: %s -> %s', (_name, input, expected) => {
    expect(canonical(input)).toBe(expected);
  });

  test('an already-canonical URI comes back unchanged', () => {
    const input = 'demo://resource/static/document/a.md?x=1#top';
    expect(canonicalizeUri(input)).toEqual({ ok: true, uri: input });
  });
});

describe('canonicalizeUri: rejections', () => {
  test.each([
    ['empty string', '', /empty/],
    ['no scheme at all', 'example.com/a', /missing scheme/],
    ['scheme-relative reference', '//example.com/a', /missing scheme/],
    ['colon only after a slash', 'a/b:c', /missing scheme/],
    ['colon only after "?"', 'a?b:c', /missing scheme/],
    ['empty scheme', ':foo', /empty scheme/],
    ['scheme starting with a digit', '1abc:x', /invalid scheme "1abc".*start with a letter/],
    ['scheme with "_"', 'my_scheme:x', /invalid scheme "my_scheme".*"_"/],
    ['percent escape in scheme', 'ht%74p://h/', /invalid scheme/],
    ['bad hex in escape', 'test://h/%G1', /malformed percent escape "%G1"/],
    ['escape with one digit at the end', 'test://h/%4', /malformed percent escape "%4"/],
    ['escape with one digit mid-string', 'test://h/%4/x', /malformed percent escape "%4\/"/],
    ['lone percent', 'test://h/100%', /malformed percent escape "%"/],
    ['space', 'test://h/a b', /space/],
    ['tab', 'test://h/a\tb', /control character U\+0009/],
    ['newline', 'test://h/a\nb', /control character U\+000A/],
    ['NUL', 'test://h/\u0000', /control character U\+0000/],
    ['DEL', 'test://h/\u007f', /control character U\+007F/],
    ['non-ASCII letter', 'test://h/é', /non-ASCII character U\+00E9/],
    ['astral character', 'test://h/😀', /non-ASCII character U\+1F600/],
    ['lone surrogate', 'test://h/\ud800', /non-ASCII character U\+D800/],
    ['"<"', 'test://h/<', /character "<"/],
    ['">"', 'test://h/>', /character ">"/],
    ['double quote', 'test://h/"', /character """/],
    ['"{"', 'test://h/{', /character "\{"/],
    ['"}"', 'test://h/}', /character "\}"/],
    ['"|"', 'test://h/|', /character "\|"/],
    ['backslash', 'test://h\\a', /character "\\"/],
    ['"^"', 'test://h/^', /character "\^"/],
    ['backtick', 'test://h/`', /character "`"/],
    ['non-digit port', 'http://h:8o/', /invalid port "8o".*digits/],
    ['negative port', 'http://h:-1/', /invalid port "-1"/],
    ['port with two colons', 'http://h:80:80/', /invalid port "80:80"/],
    ['port above 65535', 'http://h:65536/', /invalid port "65536".*out of range/],
    ['huge port', 'http://h:99999999999999999999/', /invalid port.*out of range/],
    ['unclosed IPv6 bracket', 'http://[::1/a', /unbalanced "\[".*no closing "\]"/],
    ['unopened IPv6 bracket', 'http://::1]/a', /unbalanced "\]"/],
    ['bracket in path', 'http://h/a[1]', /unbalanced "\[".*IPv6/],
    ['bracket in query', 'http://h/?a]', /unbalanced "\]"/],
    ['bracket in userinfo', 'http://u[@h/', /unbalanced "\[" in userinfo/],
    ['text after an IPv6 literal', 'http://[::1]x/', /after the IPv6 literal/],
    ['IPv6 literal with bad characters', 'http://[::g]/', /invalid IPv6 host literal/],
    ['empty IPv6 literal', 'http://[]/', /invalid IPv6 host literal/],
    ['malformed IPvFuture', 'http://[v.x]/', /invalid IPvFuture/],
    ['two "@" in authority', 'http://a@b@c/', /more than one "@"/],
    ['two "#"', 'http://h/a#b#c', /more than one "#"/],
  ])('%s', (_name, input, reason) => {
    expect(rejectionReason(input)).toMatch(reason);
  });

  test('an input longer than the maximum is rejected, one at the maximum is accepted', () => {
    const prefix = 'test://h/';
    const atMaximum = prefix + 'a'.repeat(URI_LENGTH_MAX - prefix.length);
    expect(canonical(atMaximum)).toBe(atMaximum);
    expect(rejectionReason(atMaximum + 'a')).toMatch(/8193 characters long; the maximum is 8192/);
    expect(rejectionReason('HTTP://h/' + 'a'.repeat(URI_LENGTH_MAX))).toMatch(/maximum is 8192/);
  });

  test('the fast path still rejects bad characters in an otherwise canonical URI', () => {
    expect(rejectionReason('test://static/resource/1 ')).toMatch(/space/);
    expect(rejectionReason('test://static/a#b#c')).toMatch(/"#"/);
  });
});

describe('sameResource', () => {
  test('equal after canonicalization', () => {
    expect(sameResource('HTTP://Example.com:80/a/./b/%7Euser', 'http://example.com/a/b/~user')).toBe(true);
    expect(sameResource('http://example.com', 'http://example.com/')).toBe(true);
  });

  test('different resources', () => {
    expect(sameResource('test://h/a%2Fb', 'test://h/a/b')).toBe(false);
    expect(sameResource('test://h/a', 'test://h/A')).toBe(false);
    expect(sameResource('ws://h', 'ws://h/')).toBe(false);
  });

  test('an invalid URI is never the same resource, not even as itself', () => {
    expect(sameResource('not a uri', 'not a uri')).toBe(false);
    expect(sameResource('test://h/%zz', 'test://h/%zz')).toBe(false);
    expect(sameResource('test://h/a', 'test://h/a b')).toBe(false);
    expect(sameResource('test://h/a b', 'test://h/a')).toBe(false);
  });
});

// ---- Properties -------------------------------------------------------------------------------

const unreservedCharacters = 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-._~';
const subDelimCharacters = "!$&'()*+,;=";
const uriCharacters = unreservedCharacters + subDelimCharacters + ':/?#[]@%';

/** One character of a component, and how the variant spells it. */
type Spelling = { character: string; mode: 'plain' | 'encodeUpper' | 'encodeLower' | 'upperCase' };

function spellingArbitrary(alphabet: string, modes: Spelling['mode'][]): fc.Arbitrary<Spelling> {
  return fc.record({ character: fc.constantFrom(...alphabet), mode: fc.constantFrom(...modes) });
}

function renderPlain(spellings: Spelling[]): string {
  return spellings.map((spelling) => spelling.character).join('');
}

function renderVariant(spellings: Spelling[]): string {
  return spellings.map(({ character, mode }) => {
    const encodable = unreservedCharacters.includes(character);
    const hex = character.charCodeAt(0).toString(16).padStart(2, '0');
    if (mode === 'encodeUpper' && encodable) return '%' + hex.toUpperCase();
    if (mode === 'encodeLower' && encodable) return '%' + hex.toLowerCase();
    if (mode === 'upperCase') return character.toUpperCase();
    return character;
  }).join('');
}

const encodeModes: Spelling['mode'][] = ['plain', 'encodeUpper', 'encodeLower'];
const caseModes: Spelling['mode'][] = ['plain', 'upperCase'];
const hostModes: Spelling['mode'][] = ['plain', 'encodeUpper', 'encodeLower', 'upperCase'];
const pcharAlphabet = unreservedCharacters + subDelimCharacters + ':@';

const componentArbitrary = (alphabet: string, modes: Spelling['mode'][], maxLength: number) =>
  fc.array(spellingArbitrary(alphabet, modes), { maxLength });

const segmentArbitrary = fc.oneof(
  { weight: 1, arbitrary: fc.constantFrom('.', '..').map((dots) => [...dots].map((character): Spelling => ({ character, mode: 'plain' }))) },
  { weight: 1, arbitrary: fc.constantFrom('.', '..').map((dots) => [...dots].map((character): Spelling => ({ character, mode: 'encodeUpper' }))) },
  { weight: 4, arbitrary: componentArbitrary(pcharAlphabet, encodeModes, 6) },
);

type UriParts = {
  scheme: Spelling[];
  authority: { userinfo: Spelling[] | null; host: Spelling[]; port: string | null } | null;
  rooted: boolean;
  segments: Spelling[][];
  query: Spelling[] | null;
  fragment: Spelling[] | null;
};

const lowerLetters = 'abcdefghijklmnopqrstuvwxyz';
const schemeArbitrary: fc.Arbitrary<Spelling[]> = fc.oneof(
  fc.constantFrom('http', 'https', 'ws', 'wss', 'file', 'demo', 'test', 'mem', 'urn'),
  fc.tuple(fc.constantFrom(...lowerLetters), fc.string({ unit: fc.constantFrom(...lowerLetters + '0123456789+-.'), maxLength: 6 }))
    .map(([first, rest]) => first + rest),
).chain((scheme) => fc.tuple(...[...scheme].map((character) => spellingArbitrary(character, caseModes))));

const uriPartsArbitrary: fc.Arbitrary<UriParts> = fc.record({
  scheme: schemeArbitrary,
  authority: fc.option(fc.record({
    userinfo: fc.option(componentArbitrary(unreservedCharacters + subDelimCharacters + ':', encodeModes, 6)),
    host: componentArbitrary(lowerLetters + '0123456789-._~' + subDelimCharacters, hostModes, 10),
    port: fc.option(fc.oneof(fc.constantFrom('', '80', '443', '0080'), fc.integer({ min: 0, max: 65535 }).map(String))),
  })),
  rooted: fc.boolean(),
  segments: fc.array(segmentArbitrary, { maxLength: 6 }),
  query: fc.option(componentArbitrary(pcharAlphabet + '/?', encodeModes, 8)),
  fragment: fc.option(componentArbitrary(pcharAlphabet + '/?', encodeModes, 8)),
});

function renderUri(parts: UriParts, render: (spellings: Spelling[]) => string): string {
  let uri = render(parts.scheme) + ':';
  if (parts.authority !== null) {
    const { userinfo, host, port } = parts.authority;
    uri += '//' + (userinfo === null ? '' : render(userinfo) + '@') + render(host) + (port === null ? '' : ':' + port);
  }
  const path = parts.segments.map(render).join('/');
  const firstSegmentEmpty = parts.segments.length > 0 && parts.segments[0]!.length === 0;
  // With an authority a path is empty or starts with "/"; without one a path may not start with "//"
  // (a "/." guard keeps it a path), and a rootless path may not start with "/".
  if (parts.authority !== null) uri += parts.segments.length === 0 ? '' : '/' + path;
  else if (parts.rooted) uri += (firstSegmentEmpty && parts.segments.length > 1 ? '/./' : '/') + path;
  else uri += firstSegmentEmpty ? 'r' + path : path;
  if (parts.query !== null) uri += '?' + render(parts.query);
  if (parts.fragment !== null) uri += '#' + render(parts.fragment);
  return uri;
}

const uriArbitrary = uriPartsArbitrary.map((parts) => renderUri(parts, renderVariant));
const uriCharacterStringArbitrary = fc.string({ unit: fc.constantFrom(...uriCharacters, 'A', 'F', '2', '.'), maxLength: 40 });

function assertWellFormedResult(result: CanonicalUriResult, input: string): void {
  if (result.ok) {
    expect(typeof result.uri).toBe('string');
  } else {
    expect(result.error.type).toBe('InvalidUri');
    expect(result.error.input).toBe(input);
    expect(result.error.reason.length).toBeGreaterThan(0);
  }
}

describe('canonicalizeUri: properties', () => {
  test.prop([uriArbitrary])('generated URIs are accepted', (uri) => {
    expect(canonicalizeUri(uri).ok).toBe(true);
  });

  test.prop([fc.oneof(uriArbitrary, uriCharacterStringArbitrary)])('idempotence: the canonical form is its own canonical form', (uri) => {
    const first = canonicalizeUri(uri);
    if (!first.ok) return;
    expect(canonicalizeUri(first.uri)).toEqual(first);
    expect(canonicalizeUriWithoutFastPath(first.uri)).toEqual(first);
  });

  test.prop([fc.oneof(fc.string(), fc.string({ unit: 'binary' }), uriCharacterStringArbitrary)])('never throws on any string', (input) => {
    assertWellFormedResult(canonicalizeUri(input), input);
  });

  test.prop([fc.oneof(uriArbitrary, uriArbitrary.map((uri) => canonicalizeUri(uri)).filter((r) => r.ok).map((r) => (r.ok ? r.uri : '')), uriCharacterStringArbitrary, fc.string())])(
    'the fast path agrees with the full parser',
    (input) => {
      expect(canonicalizeUri(input)).toEqual(canonicalizeUriWithoutFastPath(input));
    },
  );

  test.prop([fc.oneof(uriArbitrary, uriCharacterStringArbitrary, fc.string())])(
    'memo: asking again gives the parser\'s answer, and a caller cannot change a remembered answer',
    (input) => {
      const first = canonicalizeUri(input);
      if (first.ok) expect(() => Object.assign(first, { uri: 'changed:by-a-caller' })).toThrow(TypeError);
      expect(canonicalizeUri(input)).toEqual(canonicalizeUriWithoutFastPath(input));
    },
  );

  test.prop([uriPartsArbitrary])('percent-encoding unreserved characters and upper-casing scheme and host do not change the resource', (parts) => {
    const plain = renderUri(parts, renderPlain);
    const variant = renderUri(parts, renderVariant);
    expect(canonical(variant)).toBe(canonical(plain));
    expect(sameResource(plain, variant)).toBe(true);
  });

  const plainPcharArbitrary = fc.string({ unit: fc.constantFrom(...unreservedCharacters + subDelimCharacters + ':@'), minLength: 1, maxLength: 6 })
    .filter((segment) => segment !== '.' && segment !== '..');
  test.prop([
    uriPartsArbitrary.map((parts) => renderUri({ ...parts, query: null, fragment: null }, renderPlain)),
    plainPcharArbitrary,
    plainPcharArbitrary,
    fc.constantFrom('path', 'query', 'fragment'),
    fc.constantFrom('%2F', '%2f'),
  ])('"%2F" and "/" are never the same resource', (base, left, right, where, escape) => {
    // A path separator after a base ending in "/" would make "scheme://", an authority.
    const separator = where === 'path' ? (base.endsWith('/') ? '' : '/') : where === 'query' ? '?' : '#';
    const withSlash = `${base}${separator}${left}/${right}`;
    const withEscape = `${base}${separator}${left}${escape}${right}`;
    expect(sameResource(withSlash, withEscape)).toBe(false);
    expect(canonical(withEscape)).toContain('%2F');
  });
});
