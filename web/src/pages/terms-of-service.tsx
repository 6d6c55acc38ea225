export default function TermsOfServicePage() {
  return (
    <main className="p-8">
      <h1 className="text-2xl font-bold">TermsOfService</h1>
    </main>
  );
}
