// The navigation labels module made by scripts/nav-catalogue.mjs.
declare module 'virtual:tatib-nav' {
  const catalogues: Record<string, Record<string, unknown>>;
  export default catalogues;
}
