/**
 * Interlanguage prefixes: a short list of language codes (MediaWiki accepts every code it has a name
 * for; these are the ones a Ukrainian wiki links to in practice).
 */
export const LANGUAGE_CODES = new Set(
  (
    'en ru de fr pl be be-tarask es it pt nl sv fi no nn da cs sk sl hr sr bs mk bg ro hu el tr ka hy az kk uz ky tg ' +
    'tk lt lv et he ar fa ur hi bn ja zh ko vi th id ms ca eu gl oc br cy ga is la eo simple crh rue yi sq lb ' +
    'zh-min-nan zh-yue ta te ml mr gu kn pa ne si my km lo mn tt ba cv os ce ab sah udm koi kv mhr myv xmf'
  ).split(' '),
);
