/**
 * meta=filerepoinfo (ApiQueryFileRepoInfo of 1.25): the wiki's one file repository, the local one, as
 * FileRepo::getInfo describes it for 1.25's default $wgLocalFileRepo (Setup.php): its name and display
 * name, the upload and thumbnail URLs (relative, as configured), whether file names start with a capital
 * letter, the script path and extension. No foreign repositories ($wgForeignFileRepos is empty).
 */
import { queryModule } from '../../api/types.js';
import { UPLOAD_PATH } from '../../wiki/files.js';
import { NS_FILE } from '../../wiki/namespaces.js';
import { THUMB_PATH } from '../../wiki/thumbnails.js';

/** FileRepo::getInfo's keys for the local repository, in its order: the values of friprop */
const PROPS = ['name', 'displayname', 'rootUrl', 'local', 'url', 'thumbUrl', 'initialCapital', 'scriptDirUrl', 'scriptExtension'];

export const filerepoinfoModule = queryModule({
  kind: 'meta',
  name: 'filerepoinfo',
  prefix: 'fri',
  description: 'Return meta information about image repositories configured on the wiki.',
  params: {
    prop: {
      type: PROPS,
      multi: true,
      default: PROPS.join('|'),
      help:
        'Which repository properties to get (there may be more available on some wikis):\n' +
        ';apiurl:URL to the repository API - helpful for getting image info from the host.\n' +
        ';name:The key of the repository - used in e.g. $wgForeignFileRepos and imageinfo return values.\n' +
        ';displayname:The human-readable name of the repository wiki.\n' +
        ';rootUrl:Root URL for image paths.\n' +
        ';local:Whether that repository is the local one or not.',
    },
  },
  examples: ['action=query&meta=filerepoinfo&friprop=apiurl|name|displayname'],
  run(ctx) {
    const info: Record<string, unknown> = {
      name: 'local',
      displayname: ctx.wiki.info.sitename,
      rootUrl: UPLOAD_PATH,
      local: true,
      url: UPLOAD_PATH,
      thumbUrl: THUMB_PATH,
      initialCapital: ctx.wiki.codec.isCapitalized(NS_FILE),
      // $wgScriptPath and $wgScriptExtension
      scriptDirUrl: '',
      scriptExtension: '.php',
    };
    const wanted = new Set(ctx.params.prop as string[]);
    const repo: Record<string, unknown> = {};
    // array_intersect_key keeps getInfo's order; a false initialCapital is a value, not a missing key
    for (const key of PROPS) if (wanted.has(key)) repo[key] = info[key];
    ctx.result.object('query').repos = [repo];
  },
});
