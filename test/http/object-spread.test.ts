/**
 * No object literal on the request path starts with a spread and goes on with more members
 * (`{ ...range, continueAt }`): Node 20's V8 (11.3) promotes such a copy to the old generation at once,
 * and the young objects it points to with it, so every request that makes one leaves garbage for a full
 * GC (allfileusages promoted 178 bytes a request through one, against 4–11 for the other seed requests;
 * a loop making `{ ...small, c: 1 }` promotes nearly all it allocates, `{ a: 0, ...small }`,
 * `Object.assign({}, small, { c: 1 })` and the members written out nothing). Read from the TypeScript
 * sources; the importer's per-page code is held to it too (dump-reader copied each page's first revision
 * so); the command line runs once per process and is left out, and so are the modules' parameter
 * declarations, evaluated once when a module is loaded.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');
// the importer too: its reader and analysis run per page, a million times at 1,000,000 pages
const REQUEST_PATH = ['src/api', 'src/modules', 'src/http', 'src/store', 'src/wiki', 'src/semantic', 'src/wikitext', 'src/importer'];
/** directories and files that run once per process; elsewhere a literal run once says so in a comment */
const ONCE = ['src/store/sqlite/import/', 'src/store/postgres/publish', 'src/http/metrics.ts'];
const ONCE_NOTE = 'once per process';

/**
 * Whether the literal opening on `line` (1-based) is a module's parameter declaration: the `params` member of
 * the object a module file exports (`export const x = queryModule({` … `  params: {`), which is evaluated once,
 * when the module is loaded, however many requests it serves.
 */
export function isModuleParamsDeclaration(fileName: string, lines: string[], line: number): boolean {
  if (!fileName.startsWith('src/modules/') || lines[line - 1] !== '  params: {') return false;
  for (let i = line - 2; i >= 0; i--) {
    const text = lines[i]!;
    if (/^\S/.test(text) && !text.startsWith('//') && !text.startsWith('/*') && !text.startsWith(' *'))
      return text.startsWith('export const ');
  }
  return false;
}

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? sources(join(dir, e.name)) : e.name.endsWith('.ts') ? [join(dir, e.name)] : [],
  );
}

/**
 * `file:line` of each `{` whose first member is a spread followed by more members. A scanner, not a parser
 * (typescript 7 has no JavaScript API): strings, template literals and comments are skipped, and commas
 * count only at the brace's own depth of (), [] and {}. A block statement never starts with `...`.
 */
export function spreadThenMembers(fileName: string, text: string): string[] {
  const out: string[] = [];
  interface Frame {
    open: string;
    line: number;
    /** 0: nothing read yet, 1: a spread first, 2: a spread and a comma after it, 3: not the pattern */
    state: number;
  }
  const stack: Frame[] = [];
  /** template literals' `${` depths: a `}` at one of them goes back into the template */
  const templates: number[] = [];
  let line = 1;
  let i = 0;
  const n = text.length;
  const skipString = (q: string): void => {
    for (i++; i < n && text[i] !== q; i++) {
      if (text[i] === '\\') i++;
      else if (text[i] === '\n') line++;
    }
    i++;
  };
  /** from inside a template literal to its end or to a `${` (then true) */
  const skipTemplate = (): boolean => {
    for (; i < n; i++) {
      const c = text[i];
      if (c === '\\') i++;
      else if (c === '\n') line++;
      else if (c === '`') {
        i++;
        return false;
      } else if (c === '$' && text[i + 1] === '{') {
        i += 2;
        return true;
      }
    }
    return false;
  };
  const token = (c: string): void => {
    const top = stack[stack.length - 1];
    if (top === undefined || top.open !== '{') return;
    if (top.state === 0) top.state = c === '.' && text.startsWith('...', i) ? 1 : 3;
    else if (top.state === 2 && c !== '}') {
      out.push(`${fileName}:${top.line}`);
      top.state = 3;
    }
  };
  while (i < n) {
    const c = text[i]!;
    if (c === '\n') {
      line++;
      i++;
    } else if (c === ' ' || c === '\t' || c === '\r') i++;
    else if (c === '/' && text[i + 1] === '/') {
      while (i < n && text[i] !== '\n') i++;
    } else if (c === '/' && text[i + 1] === '*') {
      const end = text.indexOf('*/', i + 2);
      for (let k = i; k < (end < 0 ? n : end); k++) if (text[k] === '\n') line++;
      i = end < 0 ? n : end + 2;
    } else if (c === "'" || c === '"') {
      token(c);
      skipString(c);
    } else if (c === '`') {
      token(c);
      i++;
      if (skipTemplate()) {
        templates.push(stack.length);
        stack.push({ open: '${', line, state: 3 });
      }
    } else if (c === '{' || c === '(' || c === '[') {
      token(c);
      stack.push({ open: c, line, state: 0 });
      i++;
    } else if (c === '}' || c === ')' || c === ']') {
      token(c);
      stack.pop();
      i++;
      if (c === '}' && templates.length > 0 && templates[templates.length - 1] === stack.length) {
        templates.pop();
        if (skipTemplate()) {
          templates.push(stack.length);
          stack.push({ open: '${', line, state: 3 });
        }
      }
    } else if (c === ',') {
      const top = stack[stack.length - 1];
      if (top !== undefined && top.state === 1) top.state = 2;
      i++;
    } else {
      token(c);
      i += c === '.' && text.startsWith('...', i) ? 3 : 1;
    }
  }
  return out;
}

describe('object spreads on the request path', () => {
  it('finds the pattern it forbids, and leaves the allowed forms alone', () => {
    const found = spreadThenMembers(
      'x.ts',
      [
        'const a = { ...range, continueAt: 1 };',
        'const b = { ...range };',
        'const c = { first: 0, ...range };',
        'const d = Object.assign({}, range, { e: 1 });',
        'const f = g({ ...h, ...i });',
        'rows.map((r) => ({\n  ...r,\n  hidden: r.hidden === 1,\n}));',
      ].join('\n'),
    );
    assert.deepEqual(
      found.map((f) => f.split(':')[1]),
      ['1', '5', '6'],
    );
  });

  it("exempts a module's parameter declaration and no other literal named params", () => {
    const module = [
      'export const xModule = queryModule({',
      "  name: 'x',",
      '  params: {',
      "    ...revisionsBaseParams('x'),",
      "    user: { type: 'user' },",
      '  },',
      '  run(ctx) {',
      '    f({',
      '      params: {',
      '        ...ctx.params,',
      '        more: 1,',
      '      },',
      '    });',
      '  },',
      '});',
    ];
    assert.deepEqual(spreadThenMembers('src/modules/x.ts', module.join('\n')), ['src/modules/x.ts:3', 'src/modules/x.ts:9']);
    assert.equal(isModuleParamsDeclaration('src/modules/x.ts', module, 3), true);
    // not the module's own member: the statement it belongs to is not the exported declaration
    const inFunction = ['function f() {', '  params: {', '    ...a,', '    b,', '  },', '}'];
    assert.equal(isModuleParamsDeclaration('src/modules/x.ts', inFunction, 2), false);
    assert.equal(isModuleParamsDeclaration('src/modules/x.ts', module, 9), false);
    assert.equal(isModuleParamsDeclaration('src/api/x.ts', module, 3), false);
  });

  it('src/ has none outside the code that runs once per process', () => {
    const found: string[] = [];
    for (const dir of REQUEST_PATH) {
      for (const file of sources(join(root, dir))) {
        const rel = relative(root, file);
        if (ONCE.some((o) => rel.startsWith(o))) continue;
        const text = readFileSync(file, 'utf8');
        const lines = text.split('\n');
        // the note on the literal's line or on one of the two lines above it
        const noted = (line: number) => lines.slice(Math.max(0, line - 3), line).some((l) => l.includes(ONCE_NOTE));
        found.push(
          ...spreadThenMembers(rel, text).filter((f) => {
            const line = Number(f.split(':')[1]);
            return !noted(line) && !isModuleParamsDeclaration(rel, lines, line);
          }),
        );
      }
    }
    assert.deepEqual(found, []);
  });
});
