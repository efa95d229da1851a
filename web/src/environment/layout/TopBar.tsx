import { Link } from 'react-router';
import { StatusChip } from './StatusChip.tsx';

export interface PanelToggles {
  left: boolean;
  right: boolean;
  setLeft: (open: boolean) => void;
  setRight: (open: boolean) => void;
}

/** Title, status chip, panel toggles, Raw JSON and Back to Home (spec 001 §2). */
export function TopBar(props: { panels: PanelToggles; onRawJson: () => void }) {
  const { panels } = props;
  return (
    <header className="env-topbar">
      <div className="env-topbar-left">
        <button
          type="button"
          className={`toggle${panels.left ? ' on' : ''}`}
          aria-pressed={panels.left}
          title="Show or hide the configuration panel"
          data-testid="toggle-left"
          onClick={() => panels.setLeft(!panels.left)}
        >
          ☰ Configuration
        </button>
        <h1 className="env-title">
          Fieldline <span className="muted">Simulator</span>
        </h1>
        <StatusChip />
      </div>
      <div className="env-topbar-right">
        <button type="button" onClick={props.onRawJson} data-testid="raw-json-button">
          Raw JSON
        </button>
        <button
          type="button"
          className={`toggle${panels.right ? ' on' : ''}`}
          aria-pressed={panels.right}
          title="Show or hide the visualization panel"
          data-testid="toggle-right"
          onClick={() => panels.setRight(!panels.right)}
        >
          Visualization ☰
        </button>
        <Link to="/" className="button-link" data-testid="back-home">
          Back to Home
        </Link>
      </div>
    </header>
  );
}
