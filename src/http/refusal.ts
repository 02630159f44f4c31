/**
 * The answer to a request the HTTP layer cannot read (a malformed request line, a body too large or cut
 * short): MediaWiki's error object with code `badrequest`, as api.php would give it, never a 500.
 */

/** the error object's JSON; `reason` says what could not be read, `apiUrl` is where the API is */
export function refusalBody(reason: string, apiUrl: string): string {
  return JSON.stringify({
    error: { code: 'badrequest', info: `The request could not be read: ${reason}`, '*': `See ${apiUrl} for API usage` },
  });
}
