// The texts of the pages without antd, picked at build time from this folder's JSON files
// (build/public-texts.ts reads the language from the folder's name): the first texts a page in
// this language loads. The server links this chunk in the head. The same file in every folder.
export { default } from "virtual:public-texts";
