/**
 * IP addresses as the owner lane's fences read them: an IPv6 address as its eight 16-bit
 * groups, the IPv4 address some IPv6 forms carry inside them (mapped, compatible,
 * translated, 6to4, NAT64), and the key a quota counts a source by. An IPv6 client
 * usually holds a whole /64 (RFC 6177, RFC 7421: SLAAC hands every host one), so counting
 * each of its addresses apart would give it 2^64 quotas: it is counted by its /64.
 */
import { isIP } from 'node:net';

/** The eight groups of an IPv6 address (a trailing dotted quad included), or undefined. */
export function ipv6Groups(address: string): number[] | undefined {
  if (isIP(address) !== 6) return undefined;
  let text = address.replace(/%.*$/, '');
  const quad = /(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(text);
  if (quad) {
    const [a, b, c, d] = quad.slice(1).map(Number) as [number, number, number, number];
    text = `${text.slice(0, quad.index)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head, tail] = text.includes('::') ? text.split('::') : [text, undefined];
  const part = (s: string | undefined) => (s ? s.split(':').map((g) => parseInt(g, 16)) : []);
  const front = part(head);
  const back = part(tail);
  const groups = tail === undefined ? front : [...front, ...Array<number>(8 - front.length - back.length).fill(0), ...back];
  return groups.length === 8 ? groups : undefined;
}

const quad = (high: number, low: number) => `${high >> 8}.${high & 255}.${low >> 8}.${low & 255}`;

/**
 * The IPv4 address an IPv6 address carries: IPv4-mapped `::ffff:a.b.c.d`, IPv4-compatible
 * `::a.b.c.d`, IPv4-translated `::ffff:0:a.b.c.d` (RFC 2765), 6to4 `2002:AABB:CCDD::/48`
 * (RFC 3056), NAT64 `64:ff9b::/96` (RFC 6052) and `64:ff9b:1::/48` (RFC 8215).
 */
export function embeddedIPv4(address: string): string | undefined {
  const g = ipv6Groups(address);
  if (!g) return undefined;
  const zeros = (from: number, to: number) => g.slice(from, to).every((x) => x === 0);
  if (zeros(0, 5) && g[5] === 0xffff) return quad(g[6]!, g[7]!);
  if (zeros(0, 4) && g[4] === 0xffff && g[5] === 0) return quad(g[6]!, g[7]!);
  if (zeros(0, 6) && (g[6] !== 0 || g[7]! > 1)) return quad(g[6]!, g[7]!);
  if (g[0] === 0x2002) return quad(g[1]!, g[2]!);
  if (g[0] === 0x64 && g[1] === 0xff9b && (zeros(2, 6) || g[2] === 1)) return quad(g[6]!, g[7]!);
  return undefined;
}

/** The key a quota counts `address` by: an IPv4 address as itself (an IPv4-mapped one too), an IPv6 address by its /64. */
export function quotaKey(address: string): string {
  const g = ipv6Groups(address);
  if (!g) return address;
  const mapped = embeddedIPv4(address);
  if (mapped !== undefined && g.slice(0, 5).every((x) => x === 0) && g[5] === 0xffff) return mapped;
  return `${g
    .slice(0, 4)
    .map((x) => x.toString(16))
    .join(':')}::/64`;
}
