export default function SignupPage() {
  return (
    <main className="p-8">
      <h1 className="text-2xl font-bold">Signup</h1>
    </main>
  );
}
