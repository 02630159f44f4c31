/**
 * #expr and #ifexpr: the ParserFunctions extension's ExprParser, a shunting-yard evaluator with
 * bounded stacks.
 */
import { isNumericString, phpFloatToString, phpFloatval, phpIntCast, phpRound } from '../../../php/numbers.js';
import { htmlspecialchars } from '../../../wiki/html.js';
import { LITERAL } from '../expander.js';
import type { ParserFunctionTable } from './table.js';

export function registerExpressionFunctions(table: ParserFunctionTable): void {
  table.registerCaseInsensitive(['#expr'], (expander, call) =>
    expander.charge(Math.ceil(call.first.length / EXPR_UNIT)) ? evaluateExpression(call.first) : LITERAL,
  );

  table.registerCaseInsensitive(['#ifexpr'], (expander, call) => {
    if (!expander.charge(Math.ceil(call.first.length / EXPR_UNIT))) return LITERAL;
    const r = evaluateExpressionRaw(call.first);
    if (typeof r !== 'string') return r.error;
    const truthy = r !== '' && !(isNumericString(r) && Number(r) === 0);
    return expander.trimmedArg(call, truthy ? 1 : 2);
  });
}

// Evaluating an expression costs about as much per EXPR_UNIT characters as expanding a node.
const EXPR_UNIT = 4;

enum Op {
  NEGATIVE = 3,
  POSITIVE,
  PLUS,
  MINUS,
  TIMES,
  DIVIDE,
  MOD,
  OPEN,
  CLOSE,
  AND,
  OR,
  NOT,
  EQUALITY,
  LESS,
  GREATER,
  LESSEQ,
  GREATEREQ,
  NOTEQ,
  ROUND,
  EXPONENT,
  SINE,
  COSINE,
  TANGENS,
  ARCSINE,
  ARCCOS,
  ARCTAN,
  EXP,
  LN,
  ABS = 32,
  FLOOR,
  TRUNC,
  CEIL,
  POW,
  PI,
  FMOD,
  SQRT,
}

const PRECEDENCE: Record<number, number> = {
  [Op.NEGATIVE]: 10,
  [Op.POSITIVE]: 10,
  [Op.EXPONENT]: 10,
  [Op.SINE]: 9,
  [Op.COSINE]: 9,
  [Op.TANGENS]: 9,
  [Op.ARCSINE]: 9,
  [Op.ARCCOS]: 9,
  [Op.ARCTAN]: 9,
  [Op.EXP]: 9,
  [Op.LN]: 9,
  [Op.ABS]: 9,
  [Op.FLOOR]: 9,
  [Op.TRUNC]: 9,
  [Op.CEIL]: 9,
  [Op.NOT]: 9,
  [Op.SQRT]: 9,
  [Op.POW]: 8,
  [Op.TIMES]: 7,
  [Op.DIVIDE]: 7,
  [Op.MOD]: 7,
  [Op.FMOD]: 7,
  [Op.PLUS]: 6,
  [Op.MINUS]: 6,
  [Op.ROUND]: 5,
  [Op.EQUALITY]: 4,
  [Op.LESS]: 4,
  [Op.GREATER]: 4,
  [Op.LESSEQ]: 4,
  [Op.GREATEREQ]: 4,
  [Op.NOTEQ]: 4,
  [Op.AND]: 3,
  [Op.OR]: 2,
  [Op.PI]: 0,
  [Op.OPEN]: -1,
  [Op.CLOSE]: -1,
};

const OP_NAMES: Record<number, string> = {
  [Op.NEGATIVE]: '-',
  [Op.POSITIVE]: '+',
  [Op.NOT]: 'not',
  [Op.TIMES]: '*',
  [Op.DIVIDE]: '/',
  [Op.MOD]: 'mod',
  [Op.FMOD]: 'fmod',
  [Op.PLUS]: '+',
  [Op.MINUS]: '-',
  [Op.ROUND]: 'round',
  [Op.EQUALITY]: '=',
  [Op.LESS]: '<',
  [Op.GREATER]: '>',
  [Op.LESSEQ]: '<=',
  [Op.GREATEREQ]: '>=',
  [Op.NOTEQ]: '<>',
  [Op.AND]: 'and',
  [Op.OR]: 'or',
  [Op.EXPONENT]: 'e',
  [Op.SINE]: 'sin',
  [Op.COSINE]: 'cos',
  [Op.TANGENS]: 'tan',
  [Op.ARCSINE]: 'asin',
  [Op.ARCCOS]: 'acos',
  [Op.ARCTAN]: 'atan',
  [Op.LN]: 'ln',
  [Op.EXP]: 'exp',
  [Op.ABS]: 'abs',
  [Op.FLOOR]: 'floor',
  [Op.TRUNC]: 'trunc',
  [Op.CEIL]: 'ceil',
  [Op.POW]: '^',
  [Op.PI]: 'pi',
  [Op.SQRT]: 'sqrt',
};

const WORDS: Record<string, Op> = {
  mod: Op.MOD,
  fmod: Op.FMOD,
  and: Op.AND,
  or: Op.OR,
  not: Op.NOT,
  round: Op.ROUND,
  div: Op.DIVIDE,
  e: Op.EXPONENT,
  sin: Op.SINE,
  cos: Op.COSINE,
  tan: Op.TANGENS,
  asin: Op.ARCSINE,
  acos: Op.ARCCOS,
  atan: Op.ARCTAN,
  exp: Op.EXP,
  ln: Op.LN,
  abs: Op.ABS,
  trunc: Op.TRUNC,
  floor: Op.FLOOR,
  ceil: Op.CEIL,
  pi: Op.PI,
  sqrt: Op.SQRT,
};

// keys come from the wikitext ({{#language:constructor}}, {{#expr: constructor}}): no prototype to find them in
Object.setPrototypeOf(WORDS, null);

const SYMBOL_OPS: Record<string, Op> = { '*': Op.TIMES, '/': Op.DIVIDE, '^': Op.POW, '=': Op.EQUALITY, '<': Op.LESS, '>': Op.GREATER };

const MAX_EXPR_STACK = 100;

class ExprError extends Error {}

const EXPR_MESSAGES: Record<string, string> = {
  stack_exhausted: 'Expression error: Stack exhausted.',
  unexpected_number: 'Expression error: Unexpected number.',
  unrecognised_word: 'Expression error: Unrecognized word "$1".',
  unexpected_operator: 'Expression error: Unexpected $1 operator.',
  missing_operand: 'Expression error: Missing operand for $1.',
  unexpected_closing_bracket: 'Expression error: Unexpected closing bracket.',
  unrecognised_punctuation: 'Expression error: Unrecognized punctuation character "$1".',
  unclosed_bracket: 'Expression error: Unclosed bracket.',
  division_by_zero: 'Division by zero.',
  invalid_argument: 'Invalid argument for $1: < -1 or > 1.',
  invalid_argument_ln: 'Invalid argument for ln: <= 0.',
  not_a_number: 'In $1: result is not a number.',
};

function exprError(key: string, param = ''): ExprError {
  return new ExprError(EXPR_MESSAGES[key].replace('$1', param));
}

/** {{#expr:…}}: the value, or MediaWiki's error markup. */
function evaluateExpression(expr: string): string {
  const r = evaluateExpressionRaw(expr);
  return typeof r === 'string' ? r : r.error;
}

function evaluateExpressionRaw(expr: string): string | { error: string } {
  try {
    return doExpression(expr);
  } catch (e) {
    if (e instanceof ExprError) return { error: `<strong class="error">${htmlspecialchars(e.message)}</strong>` };
    throw e;
  }
}

function doExpression(input: string): string {
  const expr = input.replace(/&lt;|&gt;|&minus;|−/g, (m) => (m === '&lt;' ? '<' : m === '&gt;' ? '>' : '-'));
  const operands: number[] = [];
  const operators: Op[] = [];
  let p = 0;
  const end = expr.length;
  let expecting: 'expression' | 'operator' = 'expression';

  while (p < end) {
    if (operands.length > MAX_EXPR_STACK || operators.length > MAX_EXPR_STACK) throw exprError('stack_exhausted');
    const code = expr.charCodeAt(p);
    const ch = expr[p];
    const ch2 = code === 60 || code === 62 || code === 33 ? expr.slice(p, p + 2) : ''; // "<", ">", "!"
    let op: Op;
    let name = '';
    if (code === 32 || code === 9 || code === 13 || code === 10) {
      p++;
      continue;
    } else if (isExprNumberChar(code)) {
      if (expecting !== 'expression') throw exprError('unexpected_number');
      let q = p;
      while (q < end && isExprNumberChar(expr.charCodeAt(q))) q++;
      operands.push(phpFloatval(expr.slice(p, q)));
      p = q;
      expecting = 'operator';
      continue;
    } else if (isAsciiLetter(code)) {
      let q = p;
      while (q < end && isAsciiLetter(expr.charCodeAt(q))) q++;
      const word = expr.slice(p, q).toLowerCase();
      p = q;
      const w = WORDS[word];
      if (w === undefined) throw exprError('unrecognised_word', word);
      op = w;
      if (op === Op.EXPONENT && expecting === 'expression') {
        operands.push(Math.E); // "e" as a constant; after an operand it is the "×10^" operator
        expecting = 'operator';
        continue;
      }
      if (op === Op.PI) {
        if (expecting !== 'expression') throw exprError('unexpected_number');
        operands.push(Math.PI);
        expecting = 'operator';
        continue;
      }
      if (PRECEDENCE[op] === 9) {
        // unary function
        if (expecting !== 'expression') throw exprError('unexpected_operator', word);
        operators.push(op);
        continue;
      }
      name = word;
    } else if (ch2 === '<=') {
      name = ch2;
      op = Op.LESSEQ;
      p += 2;
    } else if (ch2 === '>=') {
      name = ch2;
      op = Op.GREATEREQ;
      p += 2;
    } else if (ch2 === '<>' || ch2 === '!=') {
      name = ch2;
      op = Op.NOTEQ;
      p += 2;
    } else if (ch === '+' || ch === '-') {
      p++;
      if (expecting === 'expression') {
        operators.push(ch === '+' ? Op.POSITIVE : Op.NEGATIVE);
        continue;
      }
      name = ch;
      op = ch === '+' ? Op.PLUS : Op.MINUS;
    } else if (ch === '*' || ch === '/' || ch === '^' || ch === '=' || ch === '<' || ch === '>') {
      name = ch;
      op = SYMBOL_OPS[ch];
      p++;
    } else if (ch === '(') {
      if (expecting === 'operator') throw exprError('unexpected_operator', '(');
      operators.push(Op.OPEN);
      p++;
      continue;
    } else if (ch === ')') {
      let last = operators[operators.length - 1];
      while (last !== undefined && last !== Op.OPEN) {
        doOperation(last, operands);
        operators.pop();
        last = operators[operators.length - 1];
      }
      if (last === undefined) throw exprError('unexpected_closing_bracket');
      operators.pop();
      expecting = 'operator';
      p++;
      continue;
    } else {
      throw exprError('unrecognised_punctuation', String.fromCodePoint(expr.codePointAt(p) ?? 0));
    }

    // A binary operator: reduce what binds at least as tightly, then push it.
    if (expecting === 'expression') throw exprError('unexpected_operator', name);
    let last = operators[operators.length - 1];
    while (last !== undefined && PRECEDENCE[op] <= PRECEDENCE[last]) {
      doOperation(last, operands);
      operators.pop();
      last = operators[operators.length - 1];
    }
    operators.push(op);
    expecting = 'expression';
  }

  for (let op = operators.pop(); op !== undefined; op = operators.pop()) {
    if (op === Op.OPEN) throw exprError('unclosed_bracket');
    doOperation(op, operands);
  }
  return operands.map(phpFloatToString).join('<br />\n');
}

function isExprNumberChar(c: number): boolean {
  return (c >= 48 && c <= 57) || c === 46;
}

function isAsciiLetter(c: number): boolean {
  return (c >= 65 && c <= 90) || (c >= 97 && c <= 122);
}

function doOperation(op: Op, stack: number[]): void {
  const need = (n: number): void => {
    if (stack.length < n) throw exprError('missing_operand', OP_NAMES[op]);
  };
  const unary = PRECEDENCE[op] >= 9 && op !== Op.EXPONENT;
  need(unary ? 1 : 2);
  if (unary) {
    const a = stack.pop() as number;
    let r: number;
    switch (op) {
      case Op.NEGATIVE:
        r = -a;
        break;
      case Op.POSITIVE:
        r = a;
        break;
      case Op.NOT:
        r = a ? 0 : 1;
        break;
      case Op.SINE:
        r = Math.sin(a);
        break;
      case Op.COSINE:
        r = Math.cos(a);
        break;
      case Op.TANGENS:
        r = Math.tan(a);
        break;
      case Op.ARCSINE:
      case Op.ARCCOS:
        if (a < -1 || a > 1) throw exprError('invalid_argument', OP_NAMES[op]);
        r = op === Op.ARCSINE ? Math.asin(a) : Math.acos(a);
        break;
      case Op.ARCTAN:
        r = Math.atan(a);
        break;
      case Op.EXP:
        r = Math.exp(a);
        break;
      case Op.LN:
        if (a <= 0) throw exprError('invalid_argument_ln');
        r = Math.log(a);
        break;
      case Op.ABS:
        r = Math.abs(a);
        break;
      case Op.FLOOR:
        r = Math.floor(a);
        break;
      case Op.TRUNC:
        r = phpIntCast(a);
        break;
      case Op.CEIL:
        r = Math.ceil(a);
        break;
      case Op.SQRT:
        r = Math.sqrt(a);
        if (Number.isNaN(r)) throw exprError('not_a_number', 'sqrt');
        break;
      default:
        throw exprError('missing_operand', OP_NAMES[op]);
    }
    stack.push(r);
    return;
  }
  const right = stack.pop() as number;
  const left = stack.pop() as number;
  let r: number;
  switch (op) {
    case Op.TIMES:
      r = left * right;
      break;
    case Op.DIVIDE:
      if (right === 0) throw exprError('division_by_zero', OP_NAMES[op]);
      r = left / right;
      break;
    case Op.MOD: {
      const l = phpIntCast(left);
      const rr = phpIntCast(right);
      if (rr === 0) throw exprError('division_by_zero', OP_NAMES[op]);
      r = l % rr;
      break;
    }
    case Op.FMOD:
      if (right === 0) throw exprError('division_by_zero', OP_NAMES[op]);
      r = left % right;
      break;
    case Op.PLUS:
      r = left + right;
      break;
    case Op.MINUS:
      r = left - right;
      break;
    case Op.AND:
      r = left && right ? 1 : 0;
      break;
    case Op.OR:
      r = left || right ? 1 : 0;
      break;
    case Op.EQUALITY:
      r = left === right ? 1 : 0;
      break;
    case Op.NOTEQ:
      r = left !== right ? 1 : 0;
      break;
    case Op.LESS:
      r = left < right ? 1 : 0;
      break;
    case Op.GREATER:
      r = left > right ? 1 : 0;
      break;
    case Op.LESSEQ:
      r = left <= right ? 1 : 0;
      break;
    case Op.GREATEREQ:
      r = left >= right ? 1 : 0;
      break;
    case Op.ROUND:
      r = phpRound(left, phpIntCast(right));
      break;
    case Op.EXPONENT:
      r = left * 10 ** right;
      break;
    case Op.POW:
      r = left ** right;
      break;
    default:
      throw exprError('missing_operand', OP_NAMES[op]);
  }
  stack.push(r);
}
