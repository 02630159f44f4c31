/**
 * The limits SMW 2.2 puts on queries: SemanticMediaWiki.settings.php's defaults, which this wiki keeps.
 */

export const SMW_QMAX_LIMIT = 10000; // $smwgQMaxLimit
export const SMW_QMAX_INLINE_LIMIT = 500; // $smwgQMaxInlineLimit
export const SMW_QDEFAULT_LIMIT = 50; // $smwgQDefaultLimit
export const SMW_QUPPERBOUND = 5000; // $smwgQUpperbound (the offset parameter's upper bound)
export const SMW_QMAX_SIZE = 12; // $smwgQMaxSize
export const SMW_QMAX_DEPTH = 4; // $smwgQMaxDepth
export const SMW_QSUBCATEGORY_DEPTH = 10; // $smwgQSubcategoryDepth
export const SMW_QSUBPROPERTY_DEPTH = 10; // $smwgQSubpropertyDepth
export const SMW_QCONCEPT_MAX_SIZE = 20; // $smwgQConceptMaxSize
export const SMW_QCONCEPT_MAX_DEPTH = 8; // $smwgQConceptMaxDepth
/** SMW_NS_CONCEPT: the namespace of concept pages */
export const SMW_NS_CONCEPT = 108;
