/**
 * Every API module the server offers. Action modules answer action=<name>; query modules answer
 * prop=, list= and meta= (and generator= where they declare it).
 */
import type { Registry } from '../api/main.js';
import type { ActionModule, QueryModule } from '../api/types.js';
import { createQueryAction } from '../api/query.js';
import { helpModule } from './help.js';
import { createParaminfoModule } from './paraminfo.js';
import { tokensModule } from './tokens.js';
import { expandtemplatesModule } from './expandtemplates.js';
import { parseModule } from './parse.js';
import { browseBySubjectModule } from './smw/browsebysubject.js';
import { askModule } from './smw/ask.js';
import { askArgsModule } from './smw/askargs.js';
import { smwinfoModule } from './smw/smwinfo.js';
import { sfAutocompleteModule } from './sf/sfautocomplete.js';
import { metaTokensModule } from './query/tokens.js';
import { filerepoinfoModule } from './query/filerepoinfo.js';
import { siteinfoModule } from './query/siteinfo.js';
import { userinfoModule } from './query/userinfo.js';
import { allpagesModule } from './query/allpages.js';
import { categorymembersModule } from './query/categorymembers.js';
import { categoriesModule } from './query/categories.js';
import { categoryinfoModule } from './query/categoryinfo.js';
import { infoModule } from './query/info.js';
import { revisionsModule } from './query/revisions.js';
import { duplicatefilesModule } from './query/duplicatefiles.js';
import { allcategoriesModule } from './query/allcategories.js';
import { allimagesModule } from './query/allimages.js';
import { allfileusagesModule } from './query/allfileusages.js';
import { imageinfoModule } from './query/imageinfo.js';
import { imagesModule } from './query/images.js';
import { fileusageModule } from './query/fileusage.js';
import { imageusageModule } from './query/imageusage.js';
import { querypageModule } from './query/querypage.js';
import { allmessagesModule } from './query/allmessages.js';
import { pagepropsModule } from './query/pageprops.js';
import { extlinksModule } from './query/extlinks.js';
import { langlinksModule } from './query/langlinks.js';
import { iwlinksModule } from './query/iwlinks.js';
import { pageswithpropModule } from './query/pageswithprop.js';
import { pagepropnamesModule } from './query/pagepropnames.js';
import { exturlusageModule } from './query/exturlusage.js';
import { randomModule } from './query/random.js';
import { linksModule } from './query/links.js';
import { templatesModule } from './query/templates.js';
import { linkshereModule } from './query/linkshere.js';
import { transcludedinModule } from './query/transcludedin.js';
import { redirectsModule } from './query/redirects.js';
import { backlinksModule } from './query/backlinks.js';
import { embeddedinModule } from './query/embeddedin.js';
import { alllinksModule } from './query/alllinks.js';
import { alltransclusionsModule } from './query/alltransclusions.js';
import { allredirectsModule } from './query/allredirects.js';
import { contributorsModule } from './query/contributors.js';
import { usersModule } from './query/users.js';
import { allusersModule } from './query/allusers.js';
import { usercontribsModule } from './query/usercontribs.js';
import { logeventsModule } from './query/logevents.js';
import { recentchangesModule } from './query/recentchanges.js';
import { searchModule } from './query/search.js';
import { prefixsearchModule } from './query/prefixsearch.js';
import { opensearchModule } from './opensearch.js';
import { compareModule } from './compare.js';
import { rsdModule } from './rsd.js';
import { feedcontributionsModule } from './feedcontributions.js';
import { blocksModule } from './query/blocks.js';
import { protectedtitlesModule } from './query/protectedtitles.js';
import { tagsModule } from './query/tags.js';
import { langbacklinksModule } from './query/langbacklinks.js';
import { iwbacklinksModule } from './query/iwbacklinks.js';
import { checktokenModule } from './checktoken.js';
import { loginModule, logoutModule } from './login.js';
import { createaccountModule } from './write/createaccount.js';
import { editModule } from './write/edit.js';
import { watchModule } from './write/watch.js';
import { purgeModule } from './write/purge.js';
import { stasheditModule } from './write/stashedit.js';
import { rollbackModule } from './write/rollback.js';
import { deleteModule } from './write/delete.js';
import { undeleteModule } from './write/undelete.js';
import { protectModule } from './write/protect.js';
import { blockModule } from './write/block.js';
import { unblockModule } from './write/unblock.js';
import { moveModule } from './write/move.js';
import { uploadModule } from './write/upload.js';
import { filerevertModule } from './write/filerevert.js';
import { emailuserModule } from './write/emailuser.js';
import { patrolModule } from './write/patrol.js';
import { importModule } from './write/import.js';
import { clearhasmsgModule } from './write/clearhasmsg.js';
import { userrightsModule } from './write/userrights.js';
import { optionsModule } from './write/options.js';
import { imagerotateModule } from './write/imagerotate.js';
import { revisiondeleteModule } from './write/revisiondelete.js';
import { managetagsModule } from './write/managetags.js';
import { tagModule } from './write/tag.js';
import { setnotificationtimestampModule } from './write/setnotificationtimestamp.js';
import { feedrecentchangesModule } from './feedrecentchanges.js';
import { watchlistModule } from './query/watchlist.js';
import { watchlistrawModule } from './query/watchlistraw.js';
import { deletedrevsModule } from './query/deletedrevs.js';
import { alldeletedrevisionsModule } from './query/alldeletedrevisions.js';
import { deletedrevisionsModule } from './query/deletedrevisions.js';
import { filearchiveModule } from './query/filearchive.js';

export const queryModules: QueryModule[] = [
  // prop
  infoModule,
  revisionsModule,
  categoriesModule,
  categoryinfoModule,
  duplicatefilesModule,
  imageinfoModule,
  imagesModule,
  fileusageModule,
  linksModule,
  templatesModule,
  linkshereModule,
  transcludedinModule,
  redirectsModule,
  pagepropsModule,
  extlinksModule,
  langlinksModule,
  iwlinksModule,
  contributorsModule,
  deletedrevisionsModule,
  // list
  allpagesModule,
  categorymembersModule,
  allcategoriesModule,
  allimagesModule,
  allfileusagesModule,
  imageusageModule,
  querypageModule,
  backlinksModule,
  embeddedinModule,
  alllinksModule,
  alltransclusionsModule,
  allredirectsModule,
  pageswithpropModule,
  pagepropnamesModule,
  exturlusageModule,
  randomModule,
  usersModule,
  allusersModule,
  usercontribsModule,
  logeventsModule,
  recentchangesModule,
  searchModule,
  prefixsearchModule,
  blocksModule,
  protectedtitlesModule,
  tagsModule,
  langbacklinksModule,
  iwbacklinksModule,
  watchlistModule,
  watchlistrawModule,
  deletedrevsModule,
  alldeletedrevisionsModule,
  filearchiveModule,
  // meta
  siteinfoModule,
  userinfoModule,
  metaTokensModule,
  allmessagesModule,
  filerepoinfoModule,
];

export const actionModules: ActionModule[] = [
  helpModule,
  createParaminfoModule(queryModules.map((m) => m.name)),
  expandtemplatesModule,
  parseModule,
  tokensModule,
  opensearchModule,
  compareModule,
  rsdModule,
  feedcontributionsModule,
  feedrecentchangesModule,
  browseBySubjectModule,
  askModule,
  askArgsModule,
  smwinfoModule,
  sfAutocompleteModule,
  checktokenModule,
  loginModule,
  logoutModule,
  // the write modules of 1.25, refused as a read-only wiki refuses them
  createaccountModule,
  editModule,
  watchModule,
  purgeModule,
  stasheditModule,
  rollbackModule,
  deleteModule,
  undeleteModule,
  protectModule,
  blockModule,
  unblockModule,
  moveModule,
  uploadModule,
  filerevertModule,
  emailuserModule,
  patrolModule,
  importModule,
  clearhasmsgModule,
  userrightsModule,
  optionsModule,
  imagerotateModule,
  revisiondeleteModule,
  managetagsModule,
  tagModule,
  setnotificationtimestampModule,
];

export function createRegistry(): Registry {
  return { actions: [...actionModules, createQueryAction(queryModules)], query: queryModules };
}
