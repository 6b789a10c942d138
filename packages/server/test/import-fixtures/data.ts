/** The generated source data of every flavour, for the import tests. */
export { type Expectations, OLD_PASSWORD } from "./common.js";
export { fillCommunity, fillPress } from "./community.js";
export { fillMultiflow, fillSaas } from "./saas.js";
export { fillTicketz } from "./ticketz.js";
