/**
 * Equivalent spellings of a resource URI, made by construction (RFC 3986 §6.2.2 plus default ports), so the
 * truth knows which spellings name one resource because it made them, and never asks the client's
 * canonicaliser (core/uri.ts). The resource URIs of the plans are in canonical form; each variant rewrites
 * one part into a form that normalises back to it:
 *
 * 0 scheme in upper case             `DEMO://resource/x`
 * 1 host in upper case               `test://STATIC/resource/1`
 * 2 an unreserved letter of the last segment percent-encoded, upper-case hex   `.../%61rchitecture.md`
 * 3 the same with lower-case hex     `.../%61` of a digit or `%7e` for `~`
 * 4 the hex digits of an existing escape in lower case   `a%2fb` (still NOT `a/b`: `%2F` stays reserved)
 * 5 a `.` segment                    `demo://resource/./docs/a/b`
 * 6 a `..` segment                   `demo://resource/zz/../docs/a/b`
 * 7 the scheme's default port        `https://example.com:443/x` (http and ws 80, https and wss 443)
 *
 * A variant that does not apply (no host, no escape, no letter) falls back to variant 0. Near-misses that
 * are NOT equivalent (`%2F` vs `/`, a path letter's case) are distinct resources of the plan
 * (scenarios/shape.ts `confusableResources`), never spellings.
 */

export const spellingVariants = 8;

const defaultPorts: Record<string, number> = { http: 80, https: 443, ws: 80, wss: 443 };

export function spellingOf(uri: string, variant: number): string {
  const colon = uri.indexOf(':');
  if (colon <= 0) return uri;
  const spelled = spellVariant(uri, colon, variant % spellingVariants);
  return spelled ?? uri.slice(0, colon).toUpperCase() + uri.slice(colon);
}

function spellVariant(uri: string, colon: number, variant: number): string | null {
  switch (variant) {
    case 1:
      return upperHost(uri, colon);
    case 2:
      return encodeUnreserved(uri, false);
    case 3:
      return encodeUnreserved(uri, true);
    case 4:
      return lowerEscape(uri);
    case 5:
      return insertAtPathStart(uri, colon, './');
    case 6:
      return insertAtPathStart(uri, colon, 'zz/../');
    case 7:
      return defaultPort(uri, colon);
    default:
      return null;
  }
}

/** [start, end) of the authority, or null when the URI has none. */
function authorityOf(uri: string, colon: number): [number, number] | null {
  if (!uri.startsWith('//', colon + 1)) return null;
  const start = colon + 3;
  const slash = uri.indexOf('/', start);
  return [start, slash < 0 ? uri.length : slash];
}

function upperHost(uri: string, colon: number): string | null {
  const authority = authorityOf(uri, colon);
  if (authority === null || !/[a-z]/.test(uri.slice(authority[0], authority[1]))) return null;
  return uri.slice(0, authority[0]) + uri.slice(authority[0], authority[1]).toUpperCase() + uri.slice(authority[1]);
}

function isUnreserved(code: number): boolean {
  return (code >= 97 && code <= 122) || (code >= 65 && code <= 90) || (code >= 48 && code <= 57) || code === 45 || code === 46 || code === 95 || code === 126;
}

/** Percent-encodes the first unreserved character of the last segment that has a letter in its hex (or any, upper case). */
function encodeUnreserved(uri: string, lowerHex: boolean): string | null {
  const slash = uri.lastIndexOf('/');
  for (let index = slash + 1; index < uri.length; index++) {
    const code = uri.charCodeAt(index);
    if (!isUnreserved(code)) continue;
    const hex = code.toString(16).padStart(2, '0');
    if (lowerHex && !/[a-f]/.test(hex)) continue; // lower-case hex must differ from upper case to test anything
    return uri.slice(0, index) + '%' + (lowerHex ? hex : hex.toUpperCase()) + uri.slice(index + 1);
  }
  return null;
}

function lowerEscape(uri: string): string | null {
  const match = /%[0-9A-F]*[A-F][0-9A-F]*/.exec(uri);
  if (match === null || match[0].length !== 3) return null;
  return uri.slice(0, match.index) + match[0].toLowerCase() + uri.slice(match.index + 3);
}

/** Inserts `segment` right after the first `/` of an absolute path (hierarchical URIs only). */
function insertAtPathStart(uri: string, colon: number, segment: string): string | null {
  const authority = authorityOf(uri, colon);
  const pathStart = authority === null ? colon + 1 : authority[1];
  if (uri.charCodeAt(pathStart) !== 47) return null;
  return uri.slice(0, pathStart + 1) + segment + uri.slice(pathStart + 1);
}

function defaultPort(uri: string, colon: number): string | null {
  const port = defaultPorts[uri.slice(0, colon)];
  const authority = authorityOf(uri, colon);
  if (port === undefined || authority === null || uri.slice(authority[0], authority[1]).includes(':')) return null;
  return uri.slice(0, authority[1]) + ':' + port + uri.slice(authority[1]);
}
