/** A label → value table (class `kv`): model info, mesh quality, solver info, run settings, … */
export function KeyValueTable(props: {
  rows: readonly (readonly [label: string, value: string])[];
  className?: string;
  testId?: string;
}) {
  return (
    <table className={props.className ? `kv ${props.className}` : 'kv'} data-testid={props.testId}>
      <tbody>
        {props.rows.map(([k, v]) => (
          <tr key={k}>
            <th>{k}</th>
            <td>{v}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
