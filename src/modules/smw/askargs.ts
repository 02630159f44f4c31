/**
 * action=askargs (Semantic MediaWiki 2.2, SMW\MediaWiki\Api\AskArgs): the query of action=ask given as
 * separate parameters (ApiRequestParameterFormatter::formatAskArgs):
 *
 *   conditions  each one wrapped in [[…]] and joined with a space
 *   printouts   property names; each is a printout labelled with the name exactly as given
 *   parameters  `name=value` pairs (an item without '=' is ignored)
 *
 * The answer is action=ask's (ask.ts).
 */
import type { ActionModule } from '../../api/types.js';
import { runAsk } from './ask.js';

export const askArgsModule: ActionModule = {
  kind: 'action',
  name: 'askargs',
  prefix: '',
  description: 'API module to query SMW by providing a query specified as a list of conditions, printouts and parameters.',
  params: {
    conditions: {
      type: 'string',
      multi: true,
      required: true,
      help: 'The query conditions, i.e. the requirements for a subject to be included',
    },
    printouts: { type: 'string', multi: true, default: '', help: 'The query printouts, i.e. the properties to show per subject' },
    parameters: {
      type: 'string',
      multi: true,
      default: '',
      help: 'The query parameters, i.e. all non-condition and non-printout arguments',
    },
  },
  examples: [
    'action=askargs&conditions=Modification%20date::%2B&printouts=Modification%20date&parameters=|sort%3DModification%20date|order%3Ddesc',
  ],
  async run(ctx) {
    const conditions = (ctx.params.conditions as string[] | undefined) ?? [];
    const printouts = (ctx.params.printouts as string[] | undefined) ?? [];
    const parameters = new Map<string, string>();
    for (const p of (ctx.params.parameters as string[] | undefined) ?? []) {
      const eq = p.indexOf('=');
      if (eq >= 0) parameters.set(p.slice(0, eq), p.slice(eq + 1));
    }
    await runAsk(ctx, {
      queryString: conditions.map((c) => `[[${c}]]`).join(' '),
      parameters,
      printouts,
      plainPrintouts: true,
    });
  },
};
