import type { IFilterablePickle, Plugin } from "@cucumber/cucumber/api";

/** The pickles with the @slow ones moved to the front, each group in its given order. */
export function slowFirst(pickles: readonly IFilterablePickle[]): IFilterablePickle[];

declare const plugin: Plugin;
export default plugin;
