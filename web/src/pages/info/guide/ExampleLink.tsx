/** A download link to one of the guide's example models (web/public/examples, made by scripts/make-example-models.py). */
export function ExampleLink({ file }: { file: string }) {
  return (
    <a href={`/examples/${file}`} download={file}>
      <code>{file}</code>
    </a>
  );
}
