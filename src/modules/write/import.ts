/** action=import (ApiImport of 1.25): refused on this read-only wiki, with its 1.25 parameters declared. */
import { writeModule } from './write-module.js';

export const importModule = writeModule({
  name: 'import',
  className: 'ApiImport',
  description: 'Import a page from another wiki, or an XML file.',
  needsToken: 'csrf',
  params: {
    summary: { type: 'string', help: 'Import summary.' },
    xml: { type: 'upload', help: 'Uploaded XML file.' },
    interwikisource: { type: [], help: 'For interwiki imports: wiki to import from.' },
    interwikipage: { type: 'string', help: 'For interwiki imports: page to import.' },
    fullhistory: { type: 'boolean', default: false, help: 'For interwiki imports: import the full history, not just the current version.' },
    templates: { type: 'boolean', default: false, help: 'For interwiki imports: import all included templates as well.' },
    namespace: { type: 'namespace', help: 'Import to this namespace.' },
    rootpage: { type: 'string', help: 'Import as subpage of this page.' },
  },
});
