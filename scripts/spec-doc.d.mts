/** The specification text without Appendix A. */
export function specWithoutAppendixA(text: string): string;
