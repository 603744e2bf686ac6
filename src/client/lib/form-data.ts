/** A text field of a submitted form; '' when missing or when it holds a file. */
export function readText(data: FormData, name: string): string {
  const value = data.get(name);
  return typeof value === 'string' ? value : '';
}
