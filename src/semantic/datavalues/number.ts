/**
 * SMW 2.2's number values (SMWNumberValue, SMW\NumberFormatter).
 */

/** SMW\NumberFormatter::formatNumberToLocalizedText with uk's (English fallback) separators '.' and ','. */
export function formatNumber(value: number, decplaces = 3): string {
  let places = decplaces;
  let scientific = false;
  if (places > 0 && value !== 0) {
    const abs = Math.abs(value);
    if (abs >= 1e12 || abs <= Math.pow(10, -places)) scientific = true;
    else if (abs < 1) for (let i = 0.1; abs <= i; i *= 0.1) places++;
  }
  if (scientific) {
    // sprintf('%1.6e'): PHP writes the exponent with its sign and no padding
    const [m, e] = value.toExponential(6).split('e');
    return m.replace(/(\.\d+?)0*$/, '$1') + 'e' + (e[0] === '-' ? '' : '+') + e.replace(/^\+/, '');
  }
  const fixed = Math.abs(value).toFixed(places);
  let [int, frac] = fixed.split('.');
  int = int.replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  let s = (value < 0 && Number(fixed) !== 0 ? '-' : '') + int + (frac !== undefined ? '.' + frac : '');
  const end = '.' + '0'.repeat(places);
  if (places > 0 && s.endsWith(end)) s = s.slice(0, -end.length);
  else s = s.replace(/(\.\d+?)0*$/, '$1');
  return s;
}

