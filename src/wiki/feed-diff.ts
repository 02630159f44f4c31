/**
 * The diff of a feed item as MediaWiki 1.25 writes it (FeedUtils::formatDiffRow): DifferenceEngine's
 * addHeader around the table body, then applyDiffStyle's inline styles in place of the classes, since
 * feed readers have no stylesheet. Pure text making.
 */

/** FeedUtils::applyDiffStyle's styles, in its order */
const DIFF_STYLES: ReadonlyArray<readonly [string, string]> = [
  ['diff', 'background-color: white; color:black;'],
  ['diff-otitle', 'background-color: white; color:black; text-align: center;'],
  ['diff-ntitle', 'background-color: white; color:black; text-align: center;'],
  [
    'diff-addedline',
    'color:black; font-size: 88%; border-style: solid; border-width: 1px 1px 1px 4px; border-radius: 0.33em; border-color: #a3d3ff; vertical-align: top; white-space: pre-wrap;',
  ],
  [
    'diff-deletedline',
    'color:black; font-size: 88%; border-style: solid; border-width: 1px 1px 1px 4px; border-radius: 0.33em; border-color: #ffe49c; vertical-align: top; white-space: pre-wrap;',
  ],
  [
    'diff-context',
    'background-color: #f9f9f9; color: #333333; font-size: 88%; border-style: solid; border-width: 1px 1px 1px 4px; border-radius: 0.33em; border-color: #e6e6e6; vertical-align: top; white-space: pre-wrap;',
  ],
  ['diffchange', 'font-weight: bold; text-decoration: none;'],
];
const DIFF_STYLE_PATTERNS = DIFF_STYLES.map(([cls, style]) => [new RegExp(`(<[^>]+)class=(['"])${cls}\\2([^>]*>)`, 'g'), style] as const);

/**
 * FeedUtils::applyDiffStyle: each class attribute naming exactly one of the styled classes becomes that
 * style. preg_replace replaces every match of the pattern left to right, as a global RegExp does.
 */
export function applyDiffStyle(text: string): string {
  let out = text;
  for (const [pattern, style] of DIFF_STYLE_PATTERNS)
    out = out.replace(pattern, (_m, a: string, _q: string, b: string) => `${a}style="${style}"${b}`);
  return out;
}

/**
 * DifferenceEngine::addHeader for a wiki written left to right, with both titles given (the feed's
 * "previous revision" and "revision as of"): the column layout when there is a body, `multi` (the
 * intermediate revisions notice) and `notice` rows under the titles.
 */
export function addDiffHeader(diff: string, otitle: string, ntitle: string, multi: string, notice: string): string {
  let header = "<table class='diff diff-contentalign-left'>";
  let colspan: number;
  let multiColspan: number;
  if (diff) {
    header +=
      "\n\t\t\t\t<col class='diff-marker' />\n\t\t\t\t<col class='diff-content' />\n\t\t\t\t<col class='diff-marker' />\n\t\t\t\t<col class='diff-content' />";
    colspan = 2;
    multiColspan = 4;
  } else {
    colspan = 1;
    multiColspan = 2;
  }
  if (otitle || ntitle) {
    header +=
      `\n\t\t\t\t<tr style='vertical-align: top;'>\n\t\t\t\t<td colspan='${colspan}' class='diff-otitle'>${otitle}</td>\n` +
      `\t\t\t\t<td colspan='${colspan}' class='diff-ntitle'>${ntitle}</td>\n\t\t\t\t</tr>`;
  }
  if (multi !== '') header += `<tr><td colspan='${multiColspan}' style='text-align: center;' class='diff-multi'>${multi}</td></tr>`;
  if (notice !== '') header += `<tr><td colspan='${multiColspan}' style='text-align: center;'>${notice}</td></tr>`;
  return header + diff + '</table>';
}

/**
 * Language::timeanddate, date and time of Ukrainian ('dmy both' "H:i, j xg Y", 'dmy date' "j xg Y",
 * 'dmy time' "H:i") in UTC, the default $wgLocaltimezone: `monthGen` gives the genitive month name (the
 * messages january-gen … december-gen).
 */
export function ukTimeAndDate(ts: string, monthGen: (month: number) => string): [string, string, string] {
  const time = `${ts.slice(8, 10)}:${ts.slice(10, 12)}`;
  const date = `${Number(ts.slice(6, 8))} ${monthGen(Number(ts.slice(4, 6)))} ${ts.slice(0, 4)}`;
  return [`${time}, ${date}`, date, time];
}
