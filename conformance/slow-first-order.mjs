// A cucumber plugin of the kit: the long scenarios (@slow, more than 15 s of real time, INTERPRETING.md) start
// first. With --parallel, workers take scenarios in this order, so a long one no longer starts last and keeps one
// worker busy after the others ran out of work. The order of the rest is unchanged; no scenario is left out.
// Plain JavaScript: cucumber imports its plugins before the step definitions register tsx.

const SLOW_TAG = "@slow";

/** @param {import("@cucumber/cucumber/api").IFilterablePickle} filterable */
const isSlow = ({ pickle }) => pickle.tags.some((tag) => tag.name === SLOW_TAG);

/** The pickles with the slow ones moved to the front, each group in its given order. */
export function slowFirst(pickles) {
  return [...pickles.filter(isSlow), ...pickles.filter((pickle) => !isSlow(pickle))];
}

/** @type {import("@cucumber/cucumber/api").Plugin} */
const plugin = {
  type: "plugin",
  coordinator({ transform }) {
    transform("pickles:order", (pickles) => slowFirst(pickles));
  },
};

export default plugin;
