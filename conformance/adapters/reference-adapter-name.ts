// The reference adapter's name, as the compliance matrix records it; apart from reference.ts, so that naming the
// adapter does not load the LangChain tools (about 0.3 s of CPU) into a kit whose workers run the scenarios.
export const REFERENCE_ADAPTER_NAME = "langchain-exec-process (reference)";
