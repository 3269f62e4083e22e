/** A list or card still loading: grey blocks in the shape of what comes, named for screen readers. */
export function Skeleton({ label, blocks = 3, balance = false }: { label: string; blocks?: number; balance?: boolean }) {
  return (
    <div className="skeleton" role="status" aria-label={label}>
      {Array.from({ length: blocks }, (_, index) => (
        <div key={index} className={balance && index === 0 ? 'skeleton-block skeleton-balance' : 'skeleton-block'} />
      ))}
    </div>
  );
}
