/**
 * One error class for the whole API and the 1.25 texts of the standard errors and warnings, in one table,
 * so that every module says the same thing the same way.
 */

/** A failure that ends the request with MediaWiki's {"error":{"code","info",...}} object. */
export class ApiError extends Error {
  constructor(
    readonly code: string,
    readonly info: string,
    readonly extra: Record<string, unknown> = {},
    /** HTTP status; MediaWiki answers errors with 200 */
    readonly status = 200,
  ) {
    // an ApiError is an answer, not a fault: nobody reads its stack, whose capture was most of its cost
    const limit = Error.stackTraceLimit;
    Error.stackTraceLimit = 0;
    super(info);
    Error.stackTraceLimit = limit;
  }
}

/** Standard error texts (ApiBase::$messageMap of 1.25) by code before the module prefix is added. */
export const texts = {
  missingParam: (name: string) => `The ${name} parameter must be set`,
  unknownValue: (encName: string, value: string) => `Unrecognized value for parameter '${encName}': ${value}`,
  unknownValues: (encName: string, values: string[]) =>
    `Unrecognized value${values.length > 1 ? 's' : ''} for parameter '${encName}': ${values.join(', ')}`,
  multiValue: (encName: string, values: string[]) => `Only one of '${values.join("', '")}' is allowed for parameter '${encName}'`,
  tooManyValues: (encName: string, limit: number) => `Too many values supplied for parameter '${encName}': the limit is ${limit}`,
  badContinue: () => 'Invalid continue param. You should pass the original value returned by the previous query',
  badTimestamp: (encName: string, value: string) => `Invalid value '${value}' for timestamp parameter ${encName}`,
  badInteger: (encName: string, value: string) => `Invalid value '${value}' for integer parameter ${encName}`,
  invalidTitle: (value: string) => `Bad title "${value}"`,
  lessThan: (encName: string, min: number, value: number) => `${encName} may not be less than ${min} (set to ${value})`,
  overForUsers: (encName: string, max: number, value: number) => `${encName} may not be over ${max} (set to ${value}) for users`,
  unrecognizedParams: (names: string[]) => `Unrecognized parameter${names.length > 1 ? 's' : ''}: '${names.join("', '")}'`,
  phpArray: (name: string) => `Parameter '${name}' uses unsupported PHP array syntax`,
  rawContinueWarning: () =>
    "Formatting of continuation data will be changing soon. To continue using the current formatting, use the 'rawcontinue' parameter. To begin using the new format, pass an empty string for 'continue' in the initial query.",
  mustBePosted: (module: string) => `The ${module} module requires a POST request`,
  assertUser: () => 'Assertion that the user is logged in failed',
  assertBot: () => 'Assertion that the user has the bot right failed',
  maxlag: (lag: number) => `Waiting for a database server: ${lag} seconds lagged`,
  originMismatch: () => "'origin' parameter does not match Origin header",
};
