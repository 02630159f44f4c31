/**
 * The demo's uploaded files from their descriptions in demo-wiki/pictures.json: PNG and GIF pictures
 * painted from layers of simple shapes, a PDF from lines of text, and text files (SVG, TXT) kept as they
 * are under demo-wiki/pictures/. Files that share a picture get identical bytes, which is how the demo
 * has duplicate files.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { encodeGif, encodePdf, encodePng, type Rgb } from './image-encoders.js';
import { DEMO_WIKI_DIR } from './folder.js';

/** An RGB triple in a PNG, an index into the palette in a GIF. */
type Colour = Rgb | number;

/**
 * One layer of a picture; a pixel takes the colour of the last layer that covers it. Stripes split the
 * picture into equal bands; the disc is centred with a diameter of 10/13 of the shorter side; the
 * rectangle's bounds are inclusive; an ellipse with a lowerColour is painted in two halves, like a flag.
 */
type Layer =
  | { shape: 'fill'; colour: Colour }
  | { shape: 'diagonal gradient'; from: Rgb; to: Rgb }
  | { shape: 'horizontal stripes' | 'vertical stripes'; colours: Colour[] }
  | { shape: 'disc'; colour: Colour }
  | { shape: 'checkerboard'; cell: number; colours: [even: Colour, odd: Colour] }
  | { shape: 'rectangle'; left: number; top: number; right: number; bottom: number; colour: Colour }
  | { shape: 'columns'; every: number; colour: Colour }
  | { shape: 'ellipse'; cx: number; cy: number; rx: number; ry: number; colour: Colour; lowerColour?: Colour };

export type Picture =
  | { format: 'png'; width: number; height: number; layers: Layer[] }
  | { format: 'gif'; width: number; height: number; palette: Rgb[]; frames: Layer[][] }
  | { format: 'pdf'; lines: string[] }
  | { file: string };

/** The colour a layer gives the pixel (x, y) of a width × height picture, or undefined where it is transparent. */
function layerColour(layer: Layer, x: number, y: number, width: number, height: number): Colour | undefined {
  switch (layer.shape) {
    case 'fill':
      return layer.colour;
    case 'diagonal gradient': {
      const t = (x + y) / (width + height - 2 || 1);
      const [from, to] = [layer.from, layer.to];
      return [
        Math.round(from[0] + (to[0] - from[0]) * t),
        Math.round(from[1] + (to[1] - from[1]) * t),
        Math.round(from[2] + (to[2] - from[2]) * t),
      ];
    }
    case 'horizontal stripes':
      return layer.colours[Math.min(layer.colours.length - 1, Math.floor((y * layer.colours.length) / height))];
    case 'vertical stripes':
      return layer.colours[Math.min(layer.colours.length - 1, Math.floor((x * layer.colours.length) / width))];
    case 'disc': {
      const dx = x - width / 2 + 0.5;
      const dy = y - height / 2 + 0.5;
      return dx * dx + dy * dy < (Math.min(width, height) / 2.6) ** 2 ? layer.colour : undefined;
    }
    case 'checkerboard':
      return layer.colours[(Math.floor(x / layer.cell) + Math.floor(y / layer.cell)) % 2];
    case 'rectangle':
      return x >= layer.left && x <= layer.right && y >= layer.top && y <= layer.bottom ? layer.colour : undefined;
    case 'columns':
      return x % layer.every === 0 ? layer.colour : undefined;
    case 'ellipse': {
      const inside = (x - layer.cx) ** 2 / (layer.rx * layer.rx) + (y - layer.cy) ** 2 / (layer.ry * layer.ry) < 1;
      if (!inside) return undefined;
      return y >= layer.cy && layer.lowerColour !== undefined ? layer.lowerColour : layer.colour;
    }
  }
}

function painter(layers: readonly Layer[], width: number, height: number): (x: number, y: number) => Colour {
  return (x, y) => {
    let colour: Colour | undefined;
    for (const layer of layers) colour = layerColour(layer, x, y, width, height) ?? colour;
    if (colour === undefined) throw new Error(`pixel ${x},${y} is painted by no layer`);
    return colour;
  };
}

function rgb(colour: Colour): Rgb {
  if (typeof colour === 'number') throw new Error(`a PNG takes RGB colours, not the palette index ${colour}`);
  return colour;
}
function paletteIndex(colour: Colour): number {
  if (typeof colour !== 'number') throw new Error(`a GIF takes palette indexes, not the colour ${colour.join(',')}`);
  return colour;
}

/** The bytes of a picture. */
export function pictureBytes(picture: Picture): Buffer {
  if ('file' in picture) return readFileSync(join(DEMO_WIKI_DIR, 'pictures', picture.file));
  switch (picture.format) {
    case 'png': {
      const paint = painter(picture.layers, picture.width, picture.height);
      return encodePng(picture.width, picture.height, (x, y) => rgb(paint(x, y)));
    }
    case 'gif': {
      const frames = picture.frames.map((layers) => {
        const paint = painter(layers, picture.width, picture.height);
        return (x: number, y: number) => paletteIndex(paint(x, y));
      });
      return encodeGif(picture.width, picture.height, picture.palette, frames);
    }
    case 'pdf':
      return encodePdf(picture.lines);
  }
}
