/** Category data of the wiki, as the API modules need it. */
// eslint-disable-next-line @typescript-eslint/no-empty-interface
export interface CategoryStore {}
