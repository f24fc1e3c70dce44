export { routes } from "@parlons/contract";
