// Vite's `?inline` asset import: the file as a base64 `data:` URL (the test photos).
declare module "*?inline" {
  const dataUrl: string;
  export default dataUrl;
}
