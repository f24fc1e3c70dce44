// The xliff package ships no types: the shape its converters read and write (one target language a document).
declare module "xliff/*" {
  interface XliffUnit {
    source: string;
    target?: string;
    note?: string;
  }
  export interface XliffDocument {
    sourceLanguage: string;
    targetLanguage: string;
    resources: Record<string, Record<string, XliffUnit>>;
  }
  type Convert<I, O> = (input: I) => Promise<O>;
  const convert: Convert<XliffDocument, string> & Convert<string, XliffDocument>;
  export default convert;
}
