// The DCSA event code a carrier's free text names, for events sent without their code member.
// Each phrase family is matched as whole words, case and spacing aside (hyphens and brackets
// read as spaces), and one text is read as a code only when exactly one family matches it:
// "Gate in / discharged" names two events, and which one happened is not ours to guess.
//
// Where each family's wording was seen:
// - DCSA T&T 2.2 code descriptions (TNT_v2.2.0-resolved.yaml, transportEventTypeCode and
//   equipmentEventTypeCode): Arrived, Departed, Loaded, Discharged, Gated in, Gated out,
//   Stuffed, Stripped, Pick-up, Drop-off.
// - Carriers' own tracking labels, as compared in blogs.tradlinx.com "The same event, twelve
//   different names": Maersk "Gate In (Full)", "Discharged from Vessel"; CMA CGM "Gate In Full",
//   "Discharged"; MSC "Gate In"; ONE "Container Discharged"; COSCO "Gate-in at First POL";
//   ONE, Yang Ming and HMM "Vessel Arrival".
// - project44's ocean event names (support.p-44.com, "Shipment Event Types by Mode"): "Gate out
//   Empty", "Gate in Full", "Load", "Departure from Stop", "Arrival at Stop", "Discharge".
// - Terminal49's milestone names (help.terminal49.com, "Container Milestones"): "Vessel Loaded",
//   "Vessel Departed", "Vessel Discharged".

export type DescribedType = 'TRANSPORT' | 'EQUIPMENT';

interface PhraseFamily {
  type: DescribedType;
  code: string;
  words: RegExp;
}

const PHRASE_FAMILIES: PhraseFamily[] = [
  { type: 'TRANSPORT', code: 'ARRI', words: /\barriv(e|ed|es|al)\b/ },
  { type: 'TRANSPORT', code: 'DEPA', words: /\bdepart(s|ed|ure)?\b/ },
  { type: 'EQUIPMENT', code: 'LOAD', words: /\bload(s|ed|ing)?\b/ },
  { type: 'EQUIPMENT', code: 'DISC', words: /\bdischarg(e|es|ed|ing)\b/ },
  { type: 'EQUIPMENT', code: 'GTIN', words: /\bgated? ?in\b/ },
  { type: 'EQUIPMENT', code: 'GTOT', words: /\bgated? ?out\b/ },
  { type: 'EQUIPMENT', code: 'STUF', words: /\bstuff(ed|ing)?\b/ },
  { type: 'EQUIPMENT', code: 'STRP', words: /\bstrip(ped|ping)?\b/ },
  { type: 'EQUIPMENT', code: 'PICK', words: /\bpick(ed)? ?up\b/ },
  { type: 'EQUIPMENT', code: 'DROP', words: /\bdrop(ped)? ?off\b/ },
];

/** Lower case, anything but letters and digits as one space: "Gate-In (Full)" reads "gate in full". */
const plain = (text: string): string => text.toLowerCase().replace(/[^a-z0-9]+/g, ' ').trim();

/** The code of `type` the text names, or undefined when it names none, another type's, or more than one. */
export function codeFromDescription(text: string, type: DescribedType): string | undefined {
  const words = plain(text);
  const named = PHRASE_FAMILIES.filter((family) => family.words.test(words));
  return named.length === 1 && named[0].type === type ? named[0].code : undefined;
}

/** EMPTY or LADEN when the text says exactly one of them ("Gate out Empty", "Gate In (Full)"). */
export function emptyIndicatorFromDescription(text: string): 'EMPTY' | 'LADEN' | undefined {
  const words = plain(text);
  const empty = /\bempty\b/.test(words);
  const laden = /\b(full|laden)\b/.test(words);
  return empty === laden ? undefined : empty ? 'EMPTY' : 'LADEN';
}
