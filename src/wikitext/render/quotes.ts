/** Parser::doAllQuotes / doQuotes of MediaWiki 1.25: '' and ''' (and the ambiguous runs) → <i>, <b>. */

export function doAllQuotes(text: string): string {
  return text.split('\n').map(doQuotes).join('\n');
}

export function doQuotes(text: string): string {
  const arr = text.split(/(''+)/);
  if (arr.length === 1) return text;
  let numItalics = 0;
  let numBold = 0;
  for (let i = 1; i < arr.length; i += 2) {
    let len = arr[i].length;
    // '''' is an apostrophe and ''', more than five is apostrophes and '''''
    if (len === 4) {
      arr[i - 1] += "'";
      arr[i] = "'''";
      len = 3;
    } else if (len > 5) {
      arr[i - 1] += "'".repeat(len - 5);
      arr[i] = "'''''";
      len = 5;
    }
    if (len === 2) numItalics++;
    else if (len === 3) numBold++;
    else if (len === 5) {
      numItalics++;
      numBold++;
    }
  }
  // an odd number of both: one ''' is an apostrophe + '' (the first after a single-letter word, else
  // after a multi-letter word, else after a space)
  if (numItalics % 2 === 1 && numBold % 2 === 1) {
    let firstSingle = -1;
    let firstMulti = -1;
    let firstSpace = -1;
    for (let i = 1; i < arr.length; i += 2) {
      if (arr[i].length !== 3) continue;
      const before = arr[i - 1];
      const x1 = before.slice(-1);
      const x2 = before.slice(-2, -1);
      if (x1 === ' ') {
        if (firstSpace === -1) firstSpace = i;
      } else if (x2 === ' ') {
        firstSingle = i;
        break;
      } else if (firstMulti === -1) firstMulti = i;
    }
    const at = firstSingle > -1 ? firstSingle : firstMulti > -1 ? firstMulti : firstSpace;
    if (at > -1) {
      arr[at - 1] += "'";
      arr[at] = "''";
    }
  }
  let out = '';
  let buffer = '';
  let state = '';
  for (let i = 0; i < arr.length; i++) {
    const r = arr[i];
    if (i % 2 === 0) {
      if (state === 'both') buffer += r;
      else out += r;
      continue;
    }
    const len = r.length;
    if (len === 2) {
      if (state === 'i') {
        out += '</i>';
        state = '';
      } else if (state === 'bi') {
        out += '</i>';
        state = 'b';
      } else if (state === 'ib') {
        out += '</b></i><b>';
        state = 'b';
      } else if (state === 'both') {
        out += '<b><i>' + buffer + '</i>';
        state = 'b';
      } else {
        out += '<i>';
        state += 'i';
      }
    } else if (len === 3) {
      if (state === 'b') {
        out += '</b>';
        state = '';
      } else if (state === 'bi') {
        out += '</i></b><i>';
        state = 'i';
      } else if (state === 'ib') {
        out += '</b>';
        state = 'i';
      } else if (state === 'both') {
        out += '<i><b>' + buffer + '</b>';
        state = 'i';
      } else {
        out += '<b>';
        state += 'b';
      }
    } else if (len === 5) {
      if (state === 'b') {
        out += '</b><i>';
        state = 'i';
      } else if (state === 'i') {
        out += '</i><b>';
        state = 'b';
      } else if (state === 'bi') {
        out += '</i></b>';
        state = '';
      } else if (state === 'ib') {
        out += '</b></i>';
        state = '';
      } else if (state === 'both') {
        out += '<i><b>' + buffer + '</b></i>';
        state = '';
      } else {
        buffer = '';
        state = 'both';
      }
    }
  }
  if (state === 'b' || state === 'ib') out += '</b>';
  if (state === 'i' || state === 'bi' || state === 'ib') out += '</i>';
  if (state === 'bi') out += '</b>';
  if (state === 'both' && buffer) out += '<b><i>' + buffer + '</i></b>';
  return out;
}
