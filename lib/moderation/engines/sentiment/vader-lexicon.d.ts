// The vader-sentiment package ships its lexicon as an untyped ES module.
declare module 'vader-sentiment/src/vader_lexicon.js' {
  export const lexicon: Record<string, number>
}
