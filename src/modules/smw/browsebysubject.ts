/**
 * action=browsebysubject (Semantic MediaWiki 2.2, SMW\MediaWiki\Api\BrowseBySubject): the semantic data
 * of one subject, serialized by SMW\Serializers\SemanticDataSerializer.
 *
 *   subject    a title (normal title normalisation; a #fragment is dropped); redirects are followed
 *              as SMW's DeepRedirectTargetResolver does: a cycle → `redirect-target-unresolvable`
 *              "Circular redirect for <Prefixed_DBkey> detected.", a target that cannot be one
 *              (Special:Userlogout, …) → "Redirect target is unresolvable"
 *   subobject  the subobject name ('' = the page itself)
 *
 * Output: {"query":{"subject":"Title#ns#","data":[{"property":…,"dataitem":[{"type":N,"item":…}]}],
 * "sobj":[…],"serializer":"SMW\\Serializers\\SemanticDataSerializer","version":0.1}} — properties in byte
 * order of their keys (ksort), `_SKEY` for every subject SMW knows, `sobj` with the data of the `_ASK`
 * and `_SOBJ` subobjects (only when there are any), `data: []` for a subject SMW does not know.
 *
 * A syntactically invalid subject (e.g. "[[") crashed the original (a null Title reached a method that
 * requires one). Here it is MediaWiki's usual title error: code `invalidtitle`, info `Bad title "<subject>"`.
 * The module sets no cache mode, so responses are private, as in SMW.
 */
import { conceptSerialization, decodeConcept } from '../../semantic/concept.js';
import type { ActionModule, ModuleContext } from '../../api/types.js';
import { texts } from '../../api/errors.js';
import { compareBytes } from '../../wiki/collation.js';
import { NS_SPECIAL } from '../../wiki/namespaces.js';
import { DI } from '../../semantic/types.js';
import type { SemanticSubjectData, SubjectKey } from '../../store/semantic-store.js';

export const SERIALIZER = 'SMW\\Serializers\\SemanticDataSerializer';

/** Special pages that are no valid redirect target (Title::isValidRedirectTarget, $wgInvalidRedirectTargets). */
const INVALID_TARGETS = new Set(['userlogout', 'filepath', 'mypage', 'mytalk', 'redirect']);

interface Serialized {
  subject: string;
  data: Array<{ property: string; dataitem: Array<{ type: number; item: string }> }>;
  sobj?: Serialized[];
}

function subjectString(ns: number, dbkey: string, subobject: string): string {
  return subobject === '' ? `${dbkey}#${ns}#` : `${dbkey}#${ns}##${subobject}`;
}

function serializeData(data: SemanticSubjectData | undefined): Serialized['data'] {
  if (!data) return [];
  const props = data.properties.map((p) => ({
    property: p.property,
    dataitem: p.values.map((v) => ({ type: v.type, item: v.type === DI.CONCEPT ? conceptItem(v.item) : v.item })),
  }));
  props.push({ property: '_SKEY', dataitem: [{ type: DI.BLOB, item: data.sortkey }] });
  props.sort((a, b) => compareBytes(a.property, b.property));
  return props;
}

/** a concept value as SMW serializes it (stored NUL-free, see semantic/concept.ts) */
function conceptItem(stored: string): string {
  const v = decodeConcept(stored);
  return v === null ? stored : conceptSerialization(v);
}

/** DeepRedirectTargetResolver::findRedirectTargetFor */
async function resolveRedirects(ctx: ModuleContext, start: { ns: number; dbkey: string }): Promise<{ ns: number; dbkey: string }> {
  const seen = new Set<string>();
  let t = start;
  for (;;) {
    const prefixed = ctx.wiki.codec.prefixedDbKey(t.ns, t.dbkey);
    if (seen.has(prefixed)) ctx.die('redirect-target-unresolvable', `Circular redirect for ${prefixed} detected.`);
    seen.add(prefixed);
    const page = t.ns >= 0 ? (await ctx.store.pages.byTitles([t]))[0] : undefined;
    if (!page?.isRedirect) break;
    const target = (await ctx.store.pages.redirectTargets([page.pageid])).get(page.pageid);
    if (!target) break;
    t = { ns: target.ns, dbkey: target.dbkey };
  }
  if (t.ns === NS_SPECIAL && INVALID_TARGETS.has(t.dbkey.toLowerCase()))
    ctx.die('redirect-target-unresolvable', 'Redirect target is unresolvable');
  return t;
}

export const browseBySubjectModule: ActionModule = {
  kind: 'action',
  name: 'browsebysubject',
  prefix: '',
  description: 'API module to query a subject.',
  params: {
    subject: { type: 'string', required: true, help: 'The subject to be queried' },
    subobject: { type: 'string', default: '', help: 'A subobject' },
  },
  examples: ['action=browsebysubject&subject=Main_Page'],
  async run(ctx) {
    const subjectParam = ctx.params.subject as string;
    const subobject = (ctx.params.subobject as string | undefined) ?? '';
    const title = ctx.wiki.codec.parse(subjectParam, 0);
    if (title === null) return ctx.die('invalidtitle', texts.invalidTitle(subjectParam));
    const { ns, dbkey } = await resolveRedirects(ctx, { ns: title.ns, dbkey: title.dbkey });
    const semantic = ctx.store.semantic;
    // the subject with its page's subobjects, which are what _ASK and _SOBJ name: one statement
    const [own] = await semantic.subjectData([{ ns, dbkey, subobject }], { subobjects: true });
    const out: Serialized = { subject: subjectString(ns, dbkey, subobject), data: serializeData(own) };
    // sobj: the subobjects named by the values of _ASK and _SOBJ (properties of type __sob), in that order;
    // any not of this page (SMW does not store such values, but nothing forbids them) read in one batch
    const wanted: Array<{ item: string; key: SubjectKey }> = [];
    const seen = new Set<string>();
    for (const p of out.data) {
      if (p.property !== '_ASK' && p.property !== '_SOBJ') continue;
      for (const v of p.dataitem) {
        const parts = v.item.split('#');
        if (parts.length < 4) continue;
        const [sd, sns, , ...rest] = parts;
        const name = rest.join('#');
        if (name === '' || seen.has(v.item)) continue;
        seen.add(v.item);
        wanted.push({ item: v.item, key: { ns: Number(sns), dbkey: sd, subobject: name } });
      }
    }
    const local = own?.subobjects ?? new Map<string, SemanticSubjectData>();
    const isLocal = (k: SubjectKey) => k.ns === ns && k.dbkey === dbkey && k.subobject !== subobject;
    const others = wanted.filter((w) => !isLocal(w.key));
    const otherData = others.length ? await semantic.subjectData(others.map((w) => w.key)) : [];
    const fromOthers = new Map(others.map((w, i) => [w.item, otherData[i]]));
    const sobj: Serialized[] = wanted.map((w) => ({
      subject: w.item,
      data: serializeData(isLocal(w.key) ? local.get(w.key.subobject) : fromOthers.get(w.item)),
    }));
    const query: Record<string, unknown> = { subject: out.subject, data: out.data };
    if (sobj.length) query.sobj = sobj;
    query.serializer = SERIALIZER;
    query.version = 0.1;
    ctx.result.set('query', query);
  },
};
