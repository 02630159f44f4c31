/**
 * prop=imageinfo's thumbnails (iiurlwidth, iiurlheight, iiurlparam) as MediaWiki 1.25's
 * ApiQueryImageInfo::getScale/mergeThumbParams/getInfo and File::transform give them: the thumb URL
 * layout, ImageHandler::normaliseParams' sizes, no upscaling of bitmaps, SVGs scaled up and capped at
 * $wgSVGMaxSize, the warnings and errors of iiurlparam, and TRANSFORM_LIMIT.
 *
 * The reference MediaWiki (1.39) has no scaler ($wgUseImageMagick = false, no GD), so it answers every
 * bitmap with the original file and every SVG with a thumberror; its error codes are unprefixed
 * (`urlparamnormal`) where 1.25's ApiBase::dieUsage prefixes them (`iiurlparamnormal`). The answers here are
 * 1.25's with a working scaler.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { demoServerForFile } from '../helpers/demo-server.js';

const s = demoServerForFile();
const origin = () => new URL(s.url).origin;

// Велика картинка.png is 320×200, Tux.png 48×48, Зірка.svg 100×95
const BIG = '%D0%92%D0%B5%D0%BB%D0%B8%D0%BA%D0%B0_%D0%BA%D0%B0%D1%80%D1%82%D0%B8%D0%BD%D0%BA%D0%B0.png';
const STAR = '%D0%97%D1%96%D1%80%D0%BA%D0%B0.svg';

async function info(params: Record<string, string | number>): Promise<any> {
  const r = await s.get({ action: 'query', prop: 'imageinfo', iiprop: 'url', ...params });
  return (Object.values(r.json.query.pages)[0] as any).imageinfo[0];
}

const sizes = async (params: Record<string, string | number>, title = 'Файл:Велика картинка.png') => {
  const i = await info({ titles: title, ...params });
  return [i.thumburl.slice(origin().length), i.thumbwidth, i.thumbheight];
};

describe('imageinfo thumbnails (File::transform of 1.25)', () => {
  it('a scaled bitmap: the thumb URL, its size and MIME type before url, exactly', async () => {
    const r = await s.get({
      action: 'query',
      prop: 'imageinfo',
      iiprop: 'url|size|thumbmime',
      titles: 'Файл:Велика картинка.png',
      iiurlwidth: 100,
    });
    assert.deepEqual(r.json.query.pages['330'].imageinfo, [
      {
        size: 2877,
        width: 320,
        height: 200,
        thumburl: `${origin()}/images/thumb/b/ba/${BIG}/100px-${BIG}`,
        thumbwidth: 100,
        // File::scaleHeight: round(200 * 100 / 320) = round(62.5), halves away from zero
        thumbheight: 63,
        thumbmime: 'image/png',
        url: `${origin()}/images/b/ba/${BIG}`,
        descriptionurl: `${origin()}/index.php/%D0%A4%D0%B0%D0%B9%D0%BB:${BIG}`,
      },
    ]);
  });

  it('ImageHandler::normaliseParams: the width from a height box (fitBoxWidth), the height asked for kept', async () => {
    assert.deepEqual(await sizes({ iiurlwidth: 300, iiurlheight: 50 }), [`/images/thumb/b/ba/${BIG}/80px-${BIG}`, 80, 50]);
    // only a height: the file's width limits
    assert.deepEqual(await sizes({ iiurlheight: 100 }), [`/images/thumb/b/ba/${BIG}/160px-${BIG}`, 160, 100]);
    // a height box larger than the width's: the width wins
    assert.deepEqual(await sizes({ iiurlwidth: 100, iiurlheight: 1000 }), [`/images/thumb/b/ba/${BIG}/100px-${BIG}`, 100, 63]);
  });

  it('bitmaps are never scaled up: at or above their width the file itself, at its own size (bug 23834)', async () => {
    assert.deepEqual(await sizes({ iiurlwidth: 1000 }), [`/images/b/ba/${BIG}`, 320, 200]);
    assert.deepEqual(await sizes({ iiurlwidth: 320 }), [`/images/b/ba/${BIG}`, 320, 200]);
    const tux = await info({ titles: 'Файл:Tux.png', iiurlwidth: 48, iiprop: 'url|thumbmime' });
    assert.equal(tux.thumburl, tux.url);
    assert.equal(tux.thumbmime, 'image/png');
  });

  it('SVGs scale up, are named .svg.png and are PNGs; the size stays the one asked for above $wgSVGMaxSize', async () => {
    const star = await info({ titles: 'Файл:Зірка.svg', iiurlwidth: 200, iiprop: 'url|thumbmime' });
    assert.deepEqual(
      [star.thumburl.slice(origin().length), star.thumbwidth, star.thumbheight, star.thumbmime],
      [`/images/thumb/e/e1/${STAR}/200px-${STAR}.png`, 200, 190, 'image/png'],
    );
    // SvgHandler::normaliseParams caps the bytes at 2048 on the smaller side; the name and the size on the page do not change
    assert.deepEqual(await sizes({ iiurlwidth: 5000 }, 'Файл:Зірка.svg'), [`/images/thumb/e/e1/${STAR}/5000px-${STAR}.png`, 5000, 4750]);
    // SvgHandler::makeParamString: the language first
    assert.deepEqual(await sizes({ iiurlwidth: 100, iiurlparam: 'langfr-100px' }, 'Файл:Зірка.svg'), [
      `/images/thumb/e/e1/${STAR}/langfr-100px-${STAR}.png`,
      100,
      95,
    ]);
  });

  it('files no handler renders (PDF) get no thumb fields', async () => {
    const pdf = await info({ titles: 'Файл:Документ.pdf', iiurlwidth: 100 });
    assert.deepEqual(Object.keys(pdf), ['url', 'descriptionurl']);
  });

  it("iiurlparam: the handler's parameters under iiurlwidth, with 1.25's warnings and errors", async () => {
    // a urlparam alone gives the width
    assert.deepEqual(await sizes({ iiurlparam: '150px' }), [`/images/thumb/b/ba/${BIG}/150px-${BIG}`, 150, 94]);
    const differ = await s.get({
      action: 'query',
      prop: 'imageinfo',
      iiprop: 'url',
      titles: 'Файл:Велика картинка.png',
      iiurlwidth: 100,
      iiurlparam: '150px',
    });
    assert.deepEqual(differ.json.warnings, {
      imageinfo: { '*': 'Ignoring width value set in iiurlparam (150) in favor of width value derived from iiurlwidth/iiurlheight (100)' },
    });
    assert.equal(differ.json.query.pages['330'].imageinfo[0].thumbwidth, 100);
    const unparsed = await s.get({ action: 'query', prop: 'imageinfo', titles: 'Файл:Велика картинка.png', iiurlparam: 'abc' });
    assert.deepEqual(unparsed.json, {
      warnings: { imageinfo: { '*': 'Could not parse iiurlparam for Велика_картинка.png. Using only width and height' } },
      error: {
        code: 'iiurlparamnormal',
        info: 'Could not normalise image parameters for Велика_картинка.png',
        '*': `See ${s.url} for API usage`,
      },
    });
    const invalid = await s.get({
      action: 'query',
      prop: 'imageinfo',
      titles: 'Файл:Велика картинка.png',
      iiurlwidth: 100,
      iiurlparam: '0px',
    });
    assert.equal(invalid.json.error.code, 'iiurlparam');
    assert.equal(invalid.json.error.info, 'Invalid value for iiurlparam (width=0)');
    assert.equal(invalid.headers.get('mediawiki-api-error'), 'iiurlparam');
  });

  it('parameters are checked for every file, with or without iiprop=url (checkParameterNormalise)', async () => {
    const r = await s.get({ action: 'query', prop: 'imageinfo', titles: 'Файл:Tux.png', iiurlwidth: 0 });
    assert.equal(r.json.error.code, 'iiurlparamnormal');
    assert.equal(r.json.error.info, 'Could not normalise image parameters for Tux.png');
    // a file without a handler is not checked
    const pdf = await s.get({ action: 'query', prop: 'imageinfo', titles: 'Файл:Документ.pdf', iiurlwidth: 0 });
    assert.equal(pdf.json.error, undefined);
  });

  it('at most 50 thumbnails per request (TRANSFORM_LIMIT): the rest continue from the next file', async () => {
    const r = await s.get({
      action: 'query',
      generator: 'allimages',
      gailimit: 'max',
      prop: 'imageinfo',
      iiprop: 'url',
      iiurlwidth: 10,
      continue: '',
    });
    const pages = Object.values(r.json.query.pages) as any[];
    const withInfo = pages.filter((p) => p.imageinfo);
    assert.equal(withInfo.length, 50);
    const [name, ts] = r.json.continue.iicontinue.split('|');
    // the first file left out, by name, and its upload time
    const later = pages
      .filter((p) => !p.imageinfo && p.imagerepository === undefined)
      .map((p) => p.title.slice('Файл:'.length).replace(/ /g, '_'))
      .sort((a: string, b: string) => Buffer.compare(Buffer.from(a), Buffer.from(b)));
    assert.equal(name, later[0]);
    assert.match(ts, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
    const next = await s.get({
      action: 'query',
      generator: 'allimages',
      gailimit: 'max',
      prop: 'imageinfo',
      iiprop: 'url',
      iiurlwidth: 10,
      continue: r.json.continue.continue,
      iicontinue: r.json.continue.iicontinue,
    });
    const rest = (Object.values(next.json.query.pages) as any[]).filter((p) => p.imageinfo);
    assert.deepEqual(rest.map((p) => p.title).sort(), later.map((n: string) => `Файл:${n.replace(/_/g, ' ')}`).sort());
  });
});
