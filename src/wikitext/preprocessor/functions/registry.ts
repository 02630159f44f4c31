/**
 * Every parser function the preprocessor knows, by family. A family registers its functions when this
 * table is built, never as a side effect of being imported.
 */
import { registerConditionalFunctions } from './conditionals.js';
import { registerCoreFunctions } from './core.js';
import { registerExpressionFunctions } from './expr.js';
import { registerFormsFunctions } from './forms.js';
import { registerSemanticFunctions } from './semantic.js';
import { registerTitleAndStringFunctions } from './strings.js';
import { ParserFunctionTable } from './table.js';

const FAMILIES: ReadonlyArray<(table: ParserFunctionTable) => void> = [
  registerCoreFunctions,
  registerTitleAndStringFunctions,
  registerConditionalFunctions,
  registerExpressionFunctions,
  registerSemanticFunctions,
  registerFormsFunctions,
];

export const PARSER_FUNCTIONS = new ParserFunctionTable();
for (const register of FAMILIES) register(PARSER_FUNCTIONS);
