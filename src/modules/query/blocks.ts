/**
 * list=blocks (ApiQueryBlocks of 1.25). A dump carries no `ipblocks` table, so the list is empty, as
 * it is on a 1.25 wiki without blocks; the parameters are checked as 1.25 checks them, in its order.
 */
import { continueParam, dirParam, limitParam } from '../../api/param-presets.js';
import { queryModule } from '../../api/types.js';
import { canonicalUserName, isIp } from '../../wiki/user-groups.js';
import { parseCidr } from '../../wiki/ip.js';
import { dieBadContinue } from './shared.js';

/** $wgBlockCIDRLimit of 1.25 */
const CIDR_LIMIT = { IPv4: 16, IPv6: 19 };
const SHOW_PAIRS = ['account', 'temp', 'ip', 'range'];

export const blocksModule = queryModule({
  kind: 'list',
  name: 'blocks',
  prefix: 'bk',
  description: 'List all blocked users and IP addresses.',
  params: {
    start: { type: 'timestamp', help: 'The timestamp to start enumerating from.' },
    end: { type: 'timestamp', help: 'The timestamp to stop enumerating at.' },
    dir: dirParam('In which direction to enumerate.', ['newer', 'older'], 'older'),
    ids: { type: 'integer', multi: true, help: 'List of block IDs to list (optional).' },
    users: { type: 'string', multi: true, help: 'List of users to search for (optional).' },
    ip: {
      type: 'string',
      help: 'Get all blocks applying to this IP or CIDR range, including range blocks. Cannot be used together with bkusers. CIDR ranges broader than IPv4/16 or IPv6/19 are not accepted.',
    },
    limit: limitParam(10, 'The maximum number of blocks to list.'),
    prop: {
      type: ['id', 'user', 'userid', 'by', 'byid', 'timestamp', 'expiry', 'reason', 'range', 'flags'],
      multi: true,
      default: 'id|user|by|timestamp|expiry|reason|flags',
      help: 'Which properties to get.',
    },
    show: {
      type: ['account', '!account', 'temp', '!temp', 'ip', '!ip', 'range', '!range'],
      multi: true,
      help: 'Show only items that meet these criteria.',
    },
    continue: continueParam(),
  },
  examples: ['action=query&list=blocks', 'action=query&list=blocks&bkusers=Alice|Bob'],
  run(ctx) {
    const p = ctx.params;
    // requireMaxOneParameter: a parameter that is given counts, even empty (ApiBase::parameterNotEmpty)
    if (p.users !== undefined && p.ip !== undefined) {
      ctx.die('invalidparammix', `The parameters ${ctx.encodeParamName('users')}, ${ctx.encodeParamName('ip')} can not be used together`);
    }
    if (p.continue !== undefined) {
      const cont = (p.continue as string).split('|');
      if (cont.length !== 2 || String(Math.trunc(Number(cont[1]))) !== cont[1]) dieBadContinue(ctx);
    }
    for (const user of (p.users as string[] | undefined) ?? []) {
      // ApiQueryBlocks::prepareUsername
      if (user === '' || user === '0') ctx.die('param_user', 'User parameter may not be empty');
      if (!isIp(user) && canonicalUserName(ctx.wiki.codec, user) === null) ctx.die('param_user', `User name ${user} is not valid`);
    }
    if (p.ip !== undefined) {
      const cidr = parseCidr(p.ip as string);
      if (cidr === null) return ctx.die('param_ip', 'IP parameter is not valid');
      const limit = CIDR_LIMIT[cidr.family];
      if (cidr.bits < limit) ctx.die('cidrtoobroad', `${cidr.family} CIDR ranges broader than /${limit} are not accepted`);
    }
    if (p.show !== undefined) {
      const show = new Set(p.show as string[]);
      if (SHOW_PAIRS.some((f) => show.has(f) && show.has('!' + f)))
        ctx.die('show', 'Incorrect parameter - mutually exclusive values may not be supplied');
    }
    // no block is known: the list is there, empty
    ctx.result.queryList('blocks');
  },
});
