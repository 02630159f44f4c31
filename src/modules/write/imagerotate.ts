/** action=imagerotate (ApiImageRotate of 1.25): refused on this read-only wiki, with its 1.25 parameters declared. */
import { writeModule } from './write-module.js';
import { PAGESET_PARAMS } from '../../api/query.js';

export const imagerotateModule = writeModule({
  name: 'imagerotate',
  className: 'ApiImageRotate',
  description: 'Rotate one or more images.',
  needsToken: 'csrf',
  params: Object.assign(
    {
      rotation: { type: ['90', '180', '270'], required: true, help: 'Degrees to rotate image clockwise.' },
      continue: { type: 'string', help: 'When more results are available, use this to continue.' },
    },
    PAGESET_PARAMS,
  ),
});
