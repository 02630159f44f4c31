/** IP addresses and CIDR ranges as MediaWiki 1.25's IP class reads them (IP::isIPv4, isIPv6, parseCIDR). */

const V4 = /^(?:(?:25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)\.){3}(?:25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)(?:\/(?:3[0-2]|[12]?\d))?$/;
const V6_BLOCK = /^[0-9A-Fa-f]{1,4}$/;

/** An IPv4 or IPv6 address, or a CIDR range, with its family and prefix length (the address's full length without one); null otherwise. */
export function parseCidr(text: string): { family: 'IPv4' | 'IPv6'; bits: number } | null {
  if (V4.test(text)) {
    const slash = text.indexOf('/');
    return { family: 'IPv4', bits: slash < 0 ? 32 : Number(text.slice(slash + 1)) };
  }
  const slash = text.indexOf('/');
  const address = slash < 0 ? text : text.slice(0, slash);
  let bits = 128;
  if (slash >= 0) {
    const suffix = text.slice(slash + 1);
    if (!/^\d{1,3}$/.test(suffix) || Number(suffix) > 128) return null;
    bits = Number(suffix);
  }
  if (!isIpv6(address)) return null;
  return { family: 'IPv6', bits };
}

function isIpv6(address: string): boolean {
  const halves = address.split('::');
  if (halves.length > 2) return false;
  const blocks = (s: string) => (s === '' ? [] : s.split(':'));
  const parts = halves.flatMap(blocks);
  if (!parts.every((b) => V6_BLOCK.test(b))) return false;
  return halves.length === 2 ? parts.length < 8 : parts.length === 8;
}
