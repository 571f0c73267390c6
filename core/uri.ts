// URI canonicalization for MCP resource URIs (SPEC §3.7).
//
// Rules (RFC 3986 §6.2.2 syntax-based normalization, plus default ports):
// - scheme and host are lower-cased;
// - percent-encoded unreserved characters (ALPHA DIGIT "-" "." "_" "~") are decoded, every other
//   percent escape keeps its byte and gets upper-case hex digits. Reserved characters are never
//   decoded: "a%2Fb" and "a/b" are different resources;
// - an empty port ("host:") and the default port of http/ws (80) and https/wss (443) are removed;
//   a port is written in decimal without leading zeros;
// - dot segments are removed (RFC 3986 §5.2.4) from paths that start with "/"; rootless paths
//   ("urn:isbn:123", "mem:a/../b") are opaque and kept as they are;
// - an empty path after an authority becomes "/" for http and https only;
// - userinfo, query and fragment are kept, with the percent rules applied.
// Anything that is not a URI (RFC 3986 "URI" production, lightly checked IP literals) is returned as
// a typed rejection. Pure: no I/O, never throws; the only module state is a bounded memo of answers.

import { BRACKET_CLOSE, BRACKET_OPEN, COLON, DOT, HASH, PERCENT, QUESTION, SLASH, hexValue, isAlphaCode, isLowerAlphaCode, isLowerRegNameCode, isLowerSchemeCode, isPathCodeWithoutPercent, isQueryCodeWithoutPercent, isSchemeCode, isSubDelimCode, isUnreservedCode, isUriCode, toLowerCode } from './uri-chars.js';

export type UriRejection = { type: 'InvalidUri'; input: string; reason: string };
export type CanonicalUriResult = { ok: true; uri: string } | { ok: false; error: UriRejection };

export const URI_LENGTH_MAX = 8192;
const PORT_MAX = 65535;
const HEX_DIGITS_UPPER = '0123456789ABCDEF';

type Part = { ok: true; text: string } | { ok: false; reason: string };

export function canonicalizeUri(input: string): CanonicalUriResult {
  const known = memo.get(input);
  if (known !== undefined) return known;
  const result = isAlreadyCanonical(input) ? { ok: true as const, uri: input } : canonicalizeUriWithoutFastPath(input);
  // Only accepted URIs are remembered: a simulated run names the same few again and again; rejections are rare.
  if (result.ok && input.length <= MEMO_URI_CHARS_MAX) {
    if (memo.size >= MEMO_ENTRIES_MAX) memo.clear();
    memo.set(input, Object.freeze(result));
  }
  return result;
}

/**
 * canonicalizeUri memoized (the fast path below costs a scan of every character, several times a step):
 * the table only holds (input, its frozen answer) pairs, is bounded (cleared when full) and never changes
 * an answer, so the function stays pure.
 */
const MEMO_URI_CHARS_MAX = 512;
const MEMO_ENTRIES_MAX = 4096;
const memo = new Map<string, CanonicalUriResult>();

export function sameResource(a: string, b: string): boolean {
  const left = canonicalizeUri(a);
  if (!left.ok) return false;
  if (a === b) return true;
  const right = canonicalizeUri(b);
  return right.ok && left.uri === right.uri;
}

/** The full parser. Exported so tests can prove the fast path agrees with it. */
export function canonicalizeUriWithoutFastPath(input: string): CanonicalUriResult {
  const characterProblem = findCharacterProblem(input);
  if (characterProblem !== null) return reject(input, characterProblem);
  const schemeEnd = findSchemeEnd(input);
  if (schemeEnd < 0) return reject(input, 'missing scheme: expected "scheme:" before any "/", "?" or "#"');
  const schemeProblem = findSchemeProblem(input, schemeEnd);
  if (schemeProblem !== null) return reject(input, schemeProblem);
  const scheme = input.slice(0, schemeEnd).toLowerCase();

  const length = input.length;
  const fragmentStart = input.indexOf('#', schemeEnd + 1);
  if (fragmentStart >= 0 && input.indexOf('#', fragmentStart + 1) >= 0) {
    return reject(input, 'more than one "#": the fragment may not contain "#"');
  }
  const queryEnd = fragmentStart >= 0 ? fragmentStart : length;
  const questionIndex = input.indexOf('?', schemeEnd + 1);
  const queryStart = questionIndex >= 0 && questionIndex < queryEnd ? questionIndex : -1;
  const hierarchyEnd = queryStart >= 0 ? queryStart : queryEnd;

  let output = scheme + ':';
  let pathStart = schemeEnd + 1;
  const hasAuthority = input.startsWith('//', pathStart);
  if (hasAuthority) {
    const slashIndex = input.indexOf('/', pathStart + 2);
    const authorityEnd = slashIndex >= 0 && slashIndex < hierarchyEnd ? slashIndex : hierarchyEnd;
    const authority = canonicalizeAuthority(input, pathStart + 2, authorityEnd, scheme);
    if (!authority.ok) return reject(input, authority.reason);
    output += '//' + authority.text;
    pathStart = authorityEnd;
  }
  const bracketIndex = findBracket(input, pathStart, length);
  if (bracketIndex >= 0) {
    return reject(input, `unbalanced "${input[bracketIndex]}" at index ${bracketIndex}: square brackets are only allowed around an IPv6 host literal`);
  }

  output += canonicalizePath(input, pathStart, hierarchyEnd, hasAuthority, scheme);
  if (queryStart >= 0) output += '?' + normalizePercentEncoding(input, queryStart + 1, queryEnd, false);
  if (fragmentStart >= 0) output += '#' + normalizePercentEncoding(input, fragmentStart + 1, length, false);
  return { ok: true, uri: output };
}

// Fast path: true when the input is a URI already in canonical form that needs no rewriting. Any
// doubt (a "%", an upper-case letter in scheme or authority, a port or userinfo, an IP literal, a
// dot segment, an empty path after an authority) answers false and the full parser decides.
function isAlreadyCanonical(input: string): boolean {
  const length = input.length;
  if (length === 0 || length > URI_LENGTH_MAX) return false;
  if (!isLowerAlphaCode(input.charCodeAt(0))) return false;
  let index = 1;
  for (; index < length; index++) {
    const code = input.charCodeAt(index);
    if (code === COLON) break;
    if (!isLowerSchemeCode(code)) return false;
  }
  if (index === length) return false;
  index++;
  if (input.charCodeAt(index) === SLASH && input.charCodeAt(index + 1) === SLASH) {
    for (index += 2; index < length; index++) {
      const code = input.charCodeAt(index);
      if (code === SLASH) break;
      if (!isLowerRegNameCode(code)) return false;
    }
    if (index === length) return false;
  }
  let segmentStart = index;
  let code = 0;
  for (; index < length; index++) {
    code = input.charCodeAt(index);
    if (code === SLASH) {
      if (isDotSegment(input, segmentStart, index)) return false;
      segmentStart = index + 1;
    } else if (code === QUESTION || code === HASH) {
      break;
    } else if (!isPathCodeWithoutPercent(code)) {
      return false;
    }
  }
  if (isDotSegment(input, segmentStart, index)) return false;
  if (index < length && code === QUESTION) {
    for (index++; index < length; index++) {
      code = input.charCodeAt(index);
      if (code === HASH) break;
      if (!isQueryCodeWithoutPercent(code)) return false;
    }
  }
  if (index < length) {
    for (index++; index < length; index++) {
      if (!isQueryCodeWithoutPercent(input.charCodeAt(index))) return false;
    }
  }
  return true;
}

function reject(input: string, reason: string): CanonicalUriResult {
  return { ok: false, error: { type: 'InvalidUri', input, reason } };
}

function findCharacterProblem(input: string): string | null {
  const length = input.length;
  if (length === 0) return 'empty string is not a URI';
  if (length > URI_LENGTH_MAX) return `URI is ${length} characters long; the maximum is ${URI_LENGTH_MAX}`;
  for (let index = 0; index < length; index++) {
    const code = input.charCodeAt(index);
    if (code === PERCENT) {
      if (hexValue(input.charCodeAt(index + 1)) < 0 || hexValue(input.charCodeAt(index + 2)) < 0) {
        return `malformed percent escape "${input.slice(index, index + 3)}" at index ${index}: "%" must be followed by two hex digits`;
      }
      index += 2;
    } else if (!isUriCode(code)) {
      return `${describeCharacter(input, index)} at index ${index} is not allowed in a URI`;
    }
  }
  return null;
}

function describeCharacter(input: string, index: number): string {
  const codePoint = input.codePointAt(index) ?? 0;
  const unicodeName = 'U+' + codePoint.toString(16).toUpperCase().padStart(4, '0');
  if (codePoint === 32) return `space (${unicodeName})`;
  if (codePoint < 32 || codePoint === 127) return `control character ${unicodeName}`;
  if (codePoint > 127) return `non-ASCII character ${unicodeName}`;
  return `character "${input[index]}" (${unicodeName})`;
}

function findSchemeEnd(input: string): number {
  for (let index = 0; index < input.length; index++) {
    const code = input.charCodeAt(index);
    if (code === COLON) return index;
    if (code === SLASH || code === QUESTION || code === HASH) return -1;
  }
  return -1;
}

function findSchemeProblem(input: string, schemeEnd: number): string | null {
  if (schemeEnd === 0) return 'empty scheme: nothing before ":"';
  if (!isAlphaCode(input.charCodeAt(0))) {
    return `invalid scheme "${input.slice(0, schemeEnd)}": a scheme must start with a letter`;
  }
  for (let index = 1; index < schemeEnd; index++) {
    if (!isSchemeCode(input.charCodeAt(index))) {
      return `invalid scheme "${input.slice(0, schemeEnd)}": character "${input[index]}" is not allowed (letters, digits, "+", "-", ".")`;
    }
  }
  return null;
}

function canonicalizeAuthority(input: string, start: number, end: number, scheme: string): Part {
  let hostStart = start;
  let userinfo = '';
  const atIndex = input.indexOf('@', start);
  if (atIndex >= 0 && atIndex < end) {
    const secondAtIndex = input.indexOf('@', atIndex + 1);
    if (secondAtIndex >= 0 && secondAtIndex < end) return { ok: false, reason: 'more than one "@" in authority' };
    const bracketIndex = findBracket(input, start, atIndex);
    if (bracketIndex >= 0) return { ok: false, reason: `unbalanced "${input[bracketIndex]}" in userinfo: square brackets are only allowed around an IPv6 host literal` };
    userinfo = normalizePercentEncoding(input, start, atIndex, false) + '@';
    hostStart = atIndex + 1;
  }
  let hostEnd: number;
  let host: string;
  if (input.charCodeAt(hostStart) === BRACKET_OPEN) {
    const closeIndex = input.indexOf(']', hostStart);
    if (closeIndex < 0 || closeIndex >= end) return { ok: false, reason: 'unbalanced "[" in host: IPv6 literal has no closing "]"' };
    const literalProblem = findIpLiteralProblem(input, hostStart + 1, closeIndex);
    if (literalProblem !== null) return { ok: false, reason: literalProblem };
    hostEnd = closeIndex + 1;
    if (hostEnd < end && input.charCodeAt(hostEnd) !== COLON) {
      return { ok: false, reason: 'unexpected characters after the IPv6 literal "]": expected ":port" or the end of the authority' };
    }
    host = input.slice(hostStart, hostEnd).toLowerCase();
  } else {
    const colonIndex = input.indexOf(':', hostStart);
    hostEnd = colonIndex >= 0 && colonIndex < end ? colonIndex : end;
    const bracketIndex = findBracket(input, hostStart, end);
    if (bracketIndex >= 0) return { ok: false, reason: `unbalanced "${input[bracketIndex]}" in host: an IPv6 literal must be enclosed as "[...]"` };
    host = normalizePercentEncoding(input, hostStart, hostEnd, true);
  }
  if (hostEnd === end) return { ok: true, text: userinfo + host };
  const port = canonicalizePort(input, hostEnd + 1, end, scheme);
  if (!port.ok) return port;
  return { ok: true, text: userinfo + host + port.text };
}

function findIpLiteralProblem(input: string, start: number, end: number): string | null {
  const literal = input.slice(start, end);
  const first = input.charCodeAt(start);
  if (first === 118 || first === 86) {
    // IPvFuture = "v" 1*HEXDIG "." 1*( unreserved / sub-delims / ":" )
    let index = start + 1;
    while (index < end && hexValue(input.charCodeAt(index)) >= 0) index++;
    const valid = index > start + 1 && input.charCodeAt(index) === DOT && index + 1 < end &&
      everyCode(input, index + 1, end, (code) => isUnreservedCode(code) || isSubDelimCode(code) || code === COLON);
    return valid ? null : `invalid IPvFuture host literal "[${literal}]"`;
  }
  const valid = literal.includes(':') &&
    everyCode(input, start, end, (code) => hexValue(code) >= 0 || code === COLON || code === DOT);
  return valid ? null : `invalid IPv6 host literal "[${literal}]": only hex digits, ":" and "." are allowed`;
}

function canonicalizePort(input: string, start: number, end: number, scheme: string): Part {
  let value = 0;
  for (let index = start; index < end; index++) {
    const code = input.charCodeAt(index);
    if (code < 48 || code > 57) return { ok: false, reason: `invalid port "${input.slice(start, end)}": a port must be decimal digits` };
    value = value * 10 + (code - 48);
    if (value > PORT_MAX) return { ok: false, reason: `invalid port "${input.slice(start, end)}": out of range (maximum ${PORT_MAX})` };
  }
  if (start === end || value === defaultPort(scheme)) return { ok: true, text: '' };
  return { ok: true, text: ':' + value };
}

function defaultPort(scheme: string): number {
  if (scheme === 'http' || scheme === 'ws') return 80;
  if (scheme === 'https' || scheme === 'wss') return 443;
  return -1;
}

function canonicalizePath(input: string, start: number, end: number, hasAuthority: boolean, scheme: string): string {
  let path = normalizePercentEncoding(input, start, end, false);
  if (path.charCodeAt(0) === SLASH) path = removeDotSegments(path);
  if (hasAuthority) {
    if (path.length === 0 && (scheme === 'http' || scheme === 'https')) return '/';
    return path;
  }
  // Without an authority a path may not start with "//" (it would read as one): keep a "/." guard.
  return path.startsWith('//') ? '/.' + path : path;
}

/** RFC 3986 §5.2.4 for a path that starts with "/". */
function removeDotSegments(path: string): string {
  if (!hasDotSegment(path)) return path;
  const segments = path.split('/');
  const lastIndex = segments.length - 1;
  const output: string[] = [];
  for (let index = 1; index <= lastIndex; index++) {
    const segment = segments[index] as string;
    if (segment === '.' || segment === '..') {
      if (segment === '..') output.pop();
      if (index === lastIndex) output.push('');
    } else {
      output.push(segment);
    }
  }
  return '/' + output.join('/');
}

function hasDotSegment(path: string): boolean {
  let segmentStart = 0;
  for (let index = 0; index < path.length; index++) {
    if (path.charCodeAt(index) === SLASH) {
      if (isDotSegment(path, segmentStart, index)) return true;
      segmentStart = index + 1;
    }
  }
  return isDotSegment(path, segmentStart, path.length);
}

function isDotSegment(text: string, start: number, end: number): boolean {
  const length = end - start;
  if (length === 1) return text.charCodeAt(start) === DOT;
  return length === 2 && text.charCodeAt(start) === DOT && text.charCodeAt(start + 1) === DOT;
}

/** Decodes escapes of unreserved characters, upper-cases the rest; lower-cases letters if asked. */
function normalizePercentEncoding(input: string, start: number, end: number, lowerCase: boolean): string {
  const percentIndex = input.indexOf('%', start);
  if (percentIndex < 0 || percentIndex >= end) {
    const text = input.slice(start, end);
    return lowerCase ? text.toLowerCase() : text;
  }
  let output = '';
  let runStart = start;
  for (let index = percentIndex; index < end; index++) {
    if (input.charCodeAt(index) !== PERCENT) continue;
    const run = input.slice(runStart, index);
    output += lowerCase ? run.toLowerCase() : run;
    const high = hexValue(input.charCodeAt(index + 1));
    const low = hexValue(input.charCodeAt(index + 2));
    const byte = high * 16 + low;
    if (isUnreservedCode(byte)) {
      output += String.fromCharCode(lowerCase ? toLowerCode(byte) : byte);
    } else {
      output += '%' + HEX_DIGITS_UPPER[high] + HEX_DIGITS_UPPER[low];
    }
    index += 2;
    runStart = index + 1;
  }
  const rest = input.slice(runStart, end);
  return output + (lowerCase ? rest.toLowerCase() : rest);
}

function findBracket(input: string, start: number, end: number): number {
  for (let index = start; index < end; index++) {
    const code = input.charCodeAt(index);
    if (code === BRACKET_OPEN || code === BRACKET_CLOSE) return index;
  }
  return -1;
}

function everyCode(input: string, start: number, end: number, predicate: (code: number) => boolean): boolean {
  for (let index = start; index < end; index++) {
    if (!predicate(input.charCodeAt(index))) return false;
  }
  return true;
}
