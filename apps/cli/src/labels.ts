/**
 * The API's enum words as a person reads them, and back: `strength_training` is "strength training" and
 * `biceps_left` "left biceps" in every table and line, and an option takes either spelling.
 */
export const label = (word: string): string => {
  const sided = /^(\w+)_(left|right)$/.exec(word);
  return sided ? `${sided[2]} ${sided[1]}` : word.replaceAll("_", " ");
};

/** The enum word typed as its label, as the API spells it, or with hyphens; undefined when none matches. */
export const wordOf = <T extends string>(words: readonly T[], typed: string): T | undefined => {
  const spaced = typed.trim().toLowerCase().replace(/[\s_-]+/g, " ");
  return words.find((word) => label(word) === spaced || word.replaceAll("_", " ") === spaced);
};
