/**
 * Hands a file to the browser as a download: an object URL on a hidden `<a download>`, clicked. This
 * works standalone and inside the companion app's frame; the URL is let go once the browser has it.
 */
export function saveFile(file: Blob, name: string): void {
  const url = URL.createObjectURL(file);
  const link = document.createElement('a');
  link.href = url;
  link.download = name;
  link.hidden = true;
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 60_000);
}
