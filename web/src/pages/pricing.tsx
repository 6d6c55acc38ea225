export default function PricingPage() {
  return (
    <main className="p-8">
      <h1 className="text-2xl font-bold">Pricing</h1>
    </main>
  );
}
