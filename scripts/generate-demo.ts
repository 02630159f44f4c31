/**
 * `npm run demo`: builds the demo wiki from demo-wiki/ into OUTDIR (dump.xml, files/, messages/; see
 * src/demo/build.ts), e.g. to import it by hand or to look at the dump.
 *
 * CLI: node dist/scripts/generate-demo.js OUTDIR
 */
import { generateDemo } from '../src/demo/build.js';

const out = process.argv[2];
if (!out) {
  process.stderr.write('usage: node dist/scripts/generate-demo.js OUTDIR\n');
  process.exit(2);
}
generateDemo(out);
process.stdout.write(`demo wiki written to ${out}\n`);
