/** action=stashedit (ApiStashEdit of 1.25): refused on this read-only wiki, with its 1.25 parameters declared. */
import { writeModule } from './write-module.js';

export const stasheditModule = writeModule({
  name: 'stashedit',
  className: 'ApiStashEdit',
  description: 'Prepare an edit in shared cache.',
  needsToken: 'csrf',
  internal: true,
  params: {
    title: { type: 'string', required: true, help: 'Title of the page being edited.' },
    section: { type: 'string', help: 'Section number. 0 for the top section, new for a new section.' },
    sectiontitle: { type: 'string', help: 'The title for a new section.' },
    text: { type: 'string', required: true, help: 'Page content.' },
    contentmodel: { type: ['wikitext'], required: true, help: 'Content model of the new content.' },
    contentformat: { type: ['text/x-wiki'], required: true, help: 'Content serialization format used for the input text.' },
    baserevid: { type: 'integer', required: true, help: 'Revision ID of the base revision.' },
  },
});
