// Character codes and classes of RFC 3986 (§2, §3.1) for the canonicalizer (core/uri.ts). Pure.

// Character codes.
export const PERCENT = 37;
export const DOT = 46;
export const SLASH = 47;
export const COLON = 58;
export const QUESTION = 63;
export const AT = 64;
export const BRACKET_OPEN = 91;
export const BRACKET_CLOSE = 93;
export const HASH = 35;

// Character classes (RFC 3986 §2, §3.1). NaN (past the end of a string) is in no class.

export function hexValue(code: number): number {
  if (code >= 48 && code <= 57) return code - 48;
  if (code >= 65 && code <= 70) return code - 55;
  if (code >= 97 && code <= 102) return code - 87;
  return -1;
}

export function toLowerCode(code: number): number {
  return code >= 65 && code <= 90 ? code + 32 : code;
}

export function isLowerAlphaCode(code: number): boolean {
  return code >= 97 && code <= 122;
}

export function isAlphaCode(code: number): boolean {
  return (code >= 97 && code <= 122) || (code >= 65 && code <= 90);
}

export function isDigitCode(code: number): boolean {
  return code >= 48 && code <= 57;
}

export function isSchemeCode(code: number): boolean {
  return isAlphaCode(code) || isDigitCode(code) || code === 43 || code === 45 || code === DOT;
}

export function isLowerSchemeCode(code: number): boolean {
  return isLowerAlphaCode(code) || isDigitCode(code) || code === 43 || code === 45 || code === DOT;
}

/** unreserved = ALPHA / DIGIT / "-" / "." / "_" / "~" */
export function isUnreservedCode(code: number): boolean {
  return isAlphaCode(code) || isDigitCode(code) || code === 45 || code === DOT || code === 95 || code === 126;
}

/** sub-delims = "!" / "$" / "&" / "'" / "(" / ")" / "*" / "+" / "," / ";" / "=" */
export function isSubDelimCode(code: number): boolean {
  return code === 33 || code === 36 || (code >= 38 && code <= 44) || code === 59 || code === 61;
}

/** Any character that may appear in a URI: unreserved, reserved, or "%". */
export function isUriCode(code: number): boolean {
  if (code < 33 || code > 126) return false;
  // Printable ASCII that is never allowed: " < > \ ^ ` { | }
  return code !== 34 && code !== 60 && code !== 62 && code !== 92 && code !== 94 && code !== 96 &&
    code !== 123 && code !== 124 && code !== 125;
}

export function isLowerRegNameCode(code: number): boolean {
  return isLowerAlphaCode(code) || isDigitCode(code) || code === 45 || code === DOT || code === 95 ||
    code === 126 || isSubDelimCode(code);
}

/** pchar without pct-encoded: unreserved / sub-delims / ":" / "@" */
export function isPathCodeWithoutPercent(code: number): boolean {
  return isUnreservedCode(code) || isSubDelimCode(code) || code === COLON || code === AT;
}

export function isQueryCodeWithoutPercent(code: number): boolean {
  return isPathCodeWithoutPercent(code) || code === SLASH || code === QUESTION;
}
