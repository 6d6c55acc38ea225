export default function PrivacyPolicyPage() {
  return (
    <main className="p-8">
      <h1 className="text-2xl font-bold">PrivacyPolicy</h1>
    </main>
  );
}
