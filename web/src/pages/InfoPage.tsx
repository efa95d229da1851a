import { Link } from 'react-router';

export type InfoTopic = 'docs' | 'blog' | 'support' | 'privacy' | 'terms';

const TITLES: Record<InfoTopic, string> = {
  docs: 'Documentation',
  blog: 'Blog',
  support: 'Support',
  privacy: 'Privacy Policy',
  terms: 'Terms of Service',
};

/** Footer information pages (content comes with the accounts issue). */
export function InfoPage({ topic }: { topic: InfoTopic }) {
  return (
    <main className="page">
      <h1>{TITLES[topic]}</h1>
      <Link to="/">Back to Home</Link>
    </main>
  );
}
