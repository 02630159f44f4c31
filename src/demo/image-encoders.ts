/**
 * Byte encoders for the demo wiki's uploaded files: PNG (truecolour), GIF89a (palette, optionally
 * animated) and PDF (one page of text). Small and dependency-free on purpose: the bytes are a pure
 * function of the input, so the demo's files, and the SHA-1s the dump records for them, never change.
 */
import * as zlib from 'node:zlib';

const CRC_TABLE = (() => {
  const t = new Uint32Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    t[n] = c >>> 0;
  }
  return t;
})();
/** CRC-32 (ISO-HDLC, as PNG chunks carry it). */
export function crc32(buf: Buffer): number {
  let c = 0xffffffff;
  for (let i = 0; i < buf.length; i++) c = CRC_TABLE[(c ^ buf[i]!) & 0xff]! ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}
/** A colour as red, green and blue bytes. */
export type Rgb = readonly [number, number, number];

function pngChunk(type: string, data: Buffer): Buffer {
  const len = Buffer.alloc(4);
  len.writeUInt32BE(data.length);
  const typeAndData = Buffer.concat([Buffer.from(type, 'ascii'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(typeAndData));
  return Buffer.concat([len, typeAndData, crc]);
}
/** A truecolour 8-bit PNG, one filter-less scanline per row, deflated at level 9. */
export function encodePng(w: number, h: number, pixel: (x: number, y: number) => Rgb): Buffer {
  const raw = Buffer.alloc((w * 3 + 1) * h);
  let offset = 0;
  for (let y = 0; y < h; y++) {
    raw[offset++] = 0;
    for (let x = 0; x < w; x++) {
      const [r, g, b] = pixel(x, y);
      raw[offset++] = r;
      raw[offset++] = g;
      raw[offset++] = b;
    }
  }
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(w, 0);
  ihdr.writeUInt32BE(h, 4);
  ihdr[8] = 8; // bit depth
  ihdr[9] = 2; // truecolour
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    pngChunk('IHDR', ihdr),
    pngChunk('IDAT', zlib.deflateSync(raw, { level: 9 })),
    pngChunk('IEND', Buffer.alloc(0)),
  ]);
}

/** GIF89a with a 256-colour global palette; LZW data written with frequent clear codes (always 9-bit codes). */
export function encodeGif(w: number, h: number, palette: readonly Rgb[], frames: ReadonlyArray<(x: number, y: number) => number>): Buffer {
  const parts: Buffer[] = [];
  const head = Buffer.alloc(13);
  head.write('GIF89a', 0, 'ascii');
  head.writeUInt16LE(w, 6);
  head.writeUInt16LE(h, 8);
  head[10] = 0xf7; // global colour table, 8 bits/colour, 256 entries
  parts.push(head);
  const gct = Buffer.alloc(768);
  palette.forEach(([r, g, b], i) => {
    gct[i * 3] = r;
    gct[i * 3 + 1] = g;
    gct[i * 3 + 2] = b;
  });
  parts.push(gct);
  if (frames.length > 1) {
    // NETSCAPE2.0 looping extension
    parts.push(Buffer.from([0x21, 0xff, 0x0b, ...Buffer.from('NETSCAPE2.0', 'ascii'), 0x03, 0x01, 0x00, 0x00, 0x00]));
  }
  for (const frame of frames) {
    if (frames.length > 1) parts.push(Buffer.from([0x21, 0xf9, 0x04, 0x00, 50, 0x00, 0x00, 0x00])); // 0.5 s delay
    const desc = Buffer.alloc(10);
    desc[0] = 0x2c;
    desc.writeUInt16LE(w, 5);
    desc.writeUInt16LE(h, 7);
    parts.push(desc, Buffer.from([8]));
    // LZW: 9-bit codes; clear every 200 literals so the code width never grows.
    const bytes: number[] = [];
    let acc = 0;
    let nbits = 0;
    const emit = (code: number) => {
      acc |= code << nbits;
      nbits += 9;
      while (nbits >= 8) {
        bytes.push(acc & 0xff);
        acc >>>= 8;
        nbits -= 8;
      }
    };
    let sinceClear = 0;
    emit(256);
    for (let y = 0; y < h; y++)
      for (let x = 0; x < w; x++) {
        if (sinceClear === 200) {
          emit(256);
          sinceClear = 0;
        }
        emit(frame(x, y) & 0xff);
        sinceClear++;
      }
    emit(257);
    if (nbits > 0) bytes.push(acc & 0xff);
    for (let i = 0; i < bytes.length; i += 255) {
      const block = bytes.slice(i, i + 255);
      parts.push(Buffer.from([block.length, ...block]));
    }
    parts.push(Buffer.from([0]));
  }
  parts.push(Buffer.from([0x3b]));
  return Buffer.concat(parts);
}

/** A one-page PDF 1.4 showing lines of ASCII text in Helvetica, with a valid xref table. */
export function encodePdf(lines: readonly string[]): Buffer {
  const stream = ['BT', '/F1 18 Tf', '72 720 Td', ...lines.map((l, i) => (i === 0 ? `(${l}) Tj` : `0 -24 Td (${l}) Tj`)), 'ET'].join('\n');
  const objs = [
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R /Resources << /Font << /F1 5 0 R >> >> >>',
    `<< /Length ${stream.length} >>\nstream\n${stream}\nendstream`,
    '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>',
  ];
  let out = '%PDF-1.4\n';
  const offsets: number[] = [];
  objs.forEach((o, i) => {
    offsets.push(out.length);
    out += `${i + 1} 0 obj\n${o}\nendobj\n`;
  });
  const xref = out.length;
  out += `xref\n0 ${objs.length + 1}\n0000000000 65535 f \n`;
  for (const off of offsets) out += `${String(off).padStart(10, '0')} 00000 n \n`;
  out += `trailer\n<< /Size ${objs.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return Buffer.from(out, 'latin1');
}
