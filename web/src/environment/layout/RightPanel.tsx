import { FeaResults } from '../results/FeaResults.tsx';
import { ModelInfo } from '../results/ModelInfo.tsx';
import { useEnv } from '../state/EnvironmentContext.tsx';
import { Section } from '../ui/Section.tsx';
import { AnimationControls } from '../visualization/AnimationControls.tsx';
import { DebugControls } from '../visualization/DebugControls.tsx';
import { FieldControls } from '../visualization/FieldControls.tsx';

/** Right panel "Field Visualization" (spec 001 §2). */
export function RightPanel() {
  const results = useEnv((s) => s.results);
  const hasAnimation = !!results && results.animationFrames > 0;
  return (
    <aside className="panel right" aria-label="Field Visualization" data-testid="right-panel">
      <header className="panel-head">
        <h2>Field Visualization</h2>
      </header>
      <div className="panel-body">
        <Section title="FEA results" defaultOpen testId="results-section">
          <FeaResults />
        </Section>
        <Section title="Surface field & vectors" defaultOpen>
          <FieldControls />
        </Section>
        {hasAnimation && (
          <Section title="Animation" defaultOpen>
            <AnimationControls frameCount={results.animationFrames} />
          </Section>
        )}
        <Section title="Model info">
          <ModelInfo />
        </Section>
        <Section title="Debug">
          <DebugControls />
        </Section>
      </div>
    </aside>
  );
}
