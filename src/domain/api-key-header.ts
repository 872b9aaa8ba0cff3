// The API key an Authorization header carries, read one way by the REST API and by the MCP
// server in front of it, so that MCP never accepts a header REST would refuse, nor the reverse.

/**
 * The key of `Authorization: Token <key>` or `Bearer <key>` (also `Token token="<key>"`, as some
 * clients of the reference send it): up to 512 printable ASCII characters. Undefined for any
 * other header.
 */
export function apiKeyOfHeader(header: string | undefined): string | undefined {
  return /^\s*(?:Token|Bearer)\s+(?:token=)?"?([\x21\x23-\x7e]{1,512})"?\s*$/i.exec(header ?? '')?.[1];
}
