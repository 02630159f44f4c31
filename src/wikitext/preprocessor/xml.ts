/** The parse tree as XML (action=parse prop=parsetree, expandtemplates prop=parsetree). */
import { escapeXmlText } from '../../wiki/html.js';
import { escapeRegExp } from '../regexp.js';
import { CH_SLASH, DEFAULT_EXTENSION_TAGS, preprocessToTree } from './tokenizer.js';
import type { PNode } from './tree.js';

/**
 * Parser::preprocessToDom(text) printed as a stock 1.25 prints it: PHP's dom extension makes the
 * preprocessor Preprocessor_DOM, whose tree is serialised by libxml (DOMDocument::saveXML): text
 * escapes only &, < and >, CR is a newline (the XML it was loaded from), empty elements are <x/>, every heading is <h level= i=> and a named
 * argument is <name>…</name>=<value>…</value>. (1.39's Preprocessor_Hash also escapes '"', names
 * headings inside arguments <possible-h> and wraps the "=" in <equals>.)
 */
export function preprocessToXml(text: string, extTags: readonly string[] = DEFAULT_EXTENSION_TAGS): string {
  const { nodes } = preprocessToTree(text, false, extTags, 'node', true);
  return element('root', '', xmlNodes(nodes));
}

/** a text node as libxml prints it; the XML the DOM was loaded from had its line ends normalised to \n */
function xmlText(s: string): string {
  return escapeXmlText(s.replace(/\r\n?/g, '\n'));
}

function element(name: string, attrs: string, inner: string): string {
  return inner === '' ? `<${name}${attrs}/>` : `<${name}${attrs}>${inner}</${name}>`;
}

function xmlNodes(nodes: readonly PNode[]): string {
  let out = '';
  for (const n of nodes) {
    switch (n.k) {
      case 'text':
        out += xmlText(n.v);
        break;
      case 'comment':
      case 'ignore':
        out += element(n.k, '', xmlText(n.raw));
        break;
      case 'ext':
        out += xmlExt(n.raw);
        break;
      case 'h':
        out += element('h', ` level="${n.level}" i="${n.index}"`, xmlNodes(n.nodes));
        break;
      case 'tpl':
      case 'arg': {
        let inner = element('title', '', xmlNodes(n.title));
        for (const p of n.parts) {
          inner +=
            p.name === null
              ? `<part><name index="${p.key}"/>${element('value', '', xmlNodes(p.value))}</part>`
              : `<part>${element('name', '', xmlNodes(p.name))}=${element('value', '', xmlNodes(p.value))}</part>`;
        }
        out += element(n.k === 'tpl' ? 'template' : 'tplarg', n.lineStart ? ' lineStart="1"' : '', inner);
        break;
      }
    }
  }
  return out;
}

/** <ext><name/><attr/><inner/><close/></ext> from the tag as the tokenizer took it */
function xmlExt(raw: string): string {
  const name = /^<([^\s/>]+)/.exec(raw)![1];
  const tagEnd = raw.indexOf('>');
  let out = `<ext>${element('name', '', xmlText(name))}`;
  if (raw.charCodeAt(tagEnd - 1) === CH_SLASH) return `${out}${element('attr', '', xmlText(raw.slice(1 + name.length, tagEnd - 1)))}</ext>`;
  out += element('attr', '', xmlText(raw.slice(1 + name.length, tagEnd)));
  const rest = raw.slice(tagEnd + 1);
  const close = new RegExp(`</${escapeRegExp(name)}[ \\t\\n\\r\\f\\v]*>$`, 'i').exec(rest);
  const inner = close ? rest.slice(0, close.index) : rest;
  out += element('inner', '', xmlText(inner));
  if (close) out += element('close', '', xmlText(close[0]));
  return out + '</ext>';
}
