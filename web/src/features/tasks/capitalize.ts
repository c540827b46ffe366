/**
 * `autoCapitalizeTasks`: as a task is typed, the first word and the first word of each sentence
 * start with a capital once the word is complete (a space follows it), so the caret never jumps.
 * Words that are not prose keep their case: links (`https://`, `www.`), file paths (a slash, a
 * leading `~` or `.`), file names (`main.rs`), words with a capital, digit or symbol already, and
 * after an abbreviation (`e.g.`, `i.e.`, `etc.`, `vs.`) no new sentence starts.
 */

const ABBREVIATIONS = new Set([
  "e.g.",
  "i.e.",
  "etc.",
  "vs.",
  "cf.",
  "approx.",
  "incl.",
  "no.",
  "dr.",
  "mr.",
  "mrs.",
  "ms.",
]);

function isProse(word: string): boolean {
  if (/^(https?:\/\/|www\.)/i.test(word)) return false;
  if (/[/\\]/.test(word) || /^[~.]/.test(word)) return false;
  if (/^[\p{L}\w-]+\.[a-z0-9]{1,5}$/iu.test(word)) return false;
  return /^\p{Ll}[\p{Ll}'’-]*[,;:!?.]?$/u.test(word);
}

function endsSentence(word: string): boolean {
  return /[.!?]$/.test(word) && !ABBREVIATIONS.has(word.toLowerCase());
}

export function autoCapitalize(text: string): string {
  // Words and the space after each, so complete words are those followed by whitespace.
  const parts = text.split(/(\s+)/);
  let sentenceStart = true;
  for (let i = 0; i < parts.length; i += 2) {
    const word = parts[i] ?? "";
    if (word === "") continue;
    const complete = i + 1 < parts.length;
    if (sentenceStart && complete && isProse(word)) {
      parts[i] = word.charAt(0).toLocaleUpperCase() + word.slice(1);
    }
    sentenceStart = endsSentence(word);
  }
  return parts.join("");
}
