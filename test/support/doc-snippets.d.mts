export interface DocSnippet {
  readonly doc: string;
  readonly line: number;
  readonly code: string;
}
export function docFiles(root: string): string[];
export function docSnippets(root: string): DocSnippet[];
export function importedPackages(code: string): string[];
export function snippetFileName(snippet: DocSnippet, index: number): string;
